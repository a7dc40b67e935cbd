package invoke

import "syscall"

// dieWithHost makes the process get SIGKILL when the thread that forks it
// ends. See onForkThread: that thread lives as long as the host.
func dieWithHost(sys *syscall.SysProcAttr) { sys.Pdeathsig = syscall.SIGKILL }
