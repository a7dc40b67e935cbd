package sandbox

import (
	"io"
	"os"
	"sync"
)

// A read-all probe (a schema or format_arguments request of an entry that
// restricts no path) gets a private TMPDIR and one small Landlock layer
// that grants changes beneath it and to the writable devices. When its
// processes are gone for certain ([Launch.Ended]) and it left the
// directory empty, the next such probe of the host takes both. A cold
// listing of many binaries then makes a few directories and layers, not
// one of each per binary. A directory something was left in, or whose
// processes may live on, is removed as before.

// probeSlot is a read-all probe's TMPDIR and its layer.
type probeSlot struct {
	tmp string
	rs  *os.File // the layer (probeslot_linux.go), nil until made
	key string   // what the layer grants besides tmp (slotKey)
}

// maxProbeSlots bounds the slots a host keeps: as many as its probes run
// at once, by default.
const maxProbeSlots = 8

// probeSlots are the slots kept for the next read-all probes.
var probeSlots struct {
	sync.Mutex
	free []*probeSlot
}

// takeProbeSlot returns a kept slot when want is set and one is kept,
// else nil.
func takeProbeSlot(want bool) *probeSlot {
	if !want {
		return nil
	}
	probeSlots.Lock()
	defer probeSlots.Unlock()
	n := len(probeSlots.free)
	if n == 0 {
		return nil
	}
	s := probeSlots.free[n-1]
	probeSlots.free = probeSlots.free[:n-1]
	return s
}

// release keeps s for the next probe when ended is set, its directory is
// empty and room is left. Otherwise it removes the directory and closes
// the layer.
func (s *probeSlot) release(ended bool) {
	if ended && dirEmpty(s.tmp) {
		probeSlots.Lock()
		if len(probeSlots.free) < maxProbeSlots {
			probeSlots.free = append(probeSlots.free, s)
			probeSlots.Unlock()
			return
		}
		probeSlots.Unlock()
	}
	s.drop()
}

// drop removes s's directory and closes its layer.
func (s *probeSlot) drop() {
	if s.rs != nil {
		s.rs.Close()
	}
	removeTemp(s.tmp)
}

// ReleaseProbeSlots removes the TMPDIRs kept for the next read-all
// probes. A host calls it before it exits; a later host removes what a
// killed one left (sweep_linux.go).
func ReleaseProbeSlots() {
	probeSlots.Lock()
	free := probeSlots.free
	probeSlots.free = nil
	probeSlots.Unlock()
	for _, s := range free {
		s.drop()
	}
}

// dirEmpty reports whether dir exists and holds nothing.
func dirEmpty(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return err == io.EOF
}
