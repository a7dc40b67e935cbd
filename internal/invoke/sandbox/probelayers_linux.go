package sandbox

import (
	"os"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// A probe (a schema or format_arguments request) of an entry that
// restricts no path reads everything, as its run may: one small layer
// handles the other rights, the network and the scope. Any other probe
// is confined by two Landlock layers, each of which must allow an access. The shared layer
// handles reading and running, the network and the scope: it is the same
// for the probes of every binary that reads the same. So it is made once
// a second and shared. The probe's own layer handles every other file
// right and grants the probe's own: its private TMPDIR and the writable
// devices. A cold listing then builds one large ruleset, not one per
// binary.
//
// The probe's own layer is enforced first. Each landlock_restrict_self
// copies the rules of the layers the thread already has into the new
// domain, and then those of the layer it adds. The large shared layer
// enforced last is so copied once per probe, not twice.

// readRights are the rights of the shared layer.
const readRights = ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSExecute

// readLayers are the shared layers made within expandTTL. They are found
// by their header (the expansion they come from, the network and the
// scope), then told apart by their grants: a directory that changed makes
// a new expansion, and so a new layer.
var readLayers struct {
	sync.Mutex
	m map[string][]readLayer
}

type readLayer struct {
	at    time.Time
	reads []PathGrant
	rs    *os.File
}

// probeRulesets returns the two layers of the probe plan pl, whose
// executable is exe and private TMPDIR tmp, in the order they are
// enforced: its own, then the shared one (a descriptor of its own on
// the shared ruleset).
func probeRulesets(pl *Plan, exe, tmp string) (own, shared *os.File, err error) {
	if pl.ReadAll { // reads are not handled: one small layer of its own
		own, err = rulesetOf(pl, pl.Paths, handledFS&^readRights, true)
		return own, nil, err
	}
	reads := make([]PathGrant, 0, len(pl.Paths))
	var writes []PathGrant
	share := true // no grant of this probe's own: the layer may be shared
	for _, g := range pl.Paths {
		mine := g.Path == exe || g.Path == tmp
		if a := g.Access & readRights; a != 0 && !(mine && covered(pl.Paths, g.Path, a, exe, tmp)) {
			reads = append(reads, PathGrant{g.Path, a})
			share = share && !mine
		}
		if a := g.Access &^ readRights; a != 0 {
			writes = append(writes, PathGrant{g.Path, a})
		}
	}
	own, err = rulesetOf(pl, writes, handledFS&^readRights, false)
	if err != nil {
		return nil, nil, err
	}
	if share {
		shared, err = sharedReadLayer(pl, reads)
	} else { // a grant of its own file, which a rebuild replaces: made for this probe
		shared, err = rulesetOf(pl, reads, readRights, true)
	}
	if err != nil {
		if own != nil {
			own.Close()
		}
		return nil, nil, err
	}
	return own, shared, nil
}

// covered reports whether a grant of paths other than exe's and tmp's
// gives access beneath an ancestor of p.
func covered(paths []PathGrant, p string, access uint64, exe, tmp string) bool {
	for _, g := range paths {
		if g.Access&access == access && g.Path != exe && g.Path != tmp && beneath(g.Path, p) {
			return true
		}
	}
	return false
}

// beneath is [within] without building a string: p is dir or lies
// beneath it.
func beneath(dir, p string) bool {
	if len(p) < len(dir) || p[:len(dir)] != dir {
		return false
	}
	return len(p) == len(dir) || dir != "" && dir[len(dir)-1] == '/' || p[len(dir)] == '/'
}

// sharedReadLayer returns a descriptor of the shared layer granting reads,
// made now or within expandTTL.
func sharedReadLayer(pl *Plan, reads []PathGrant) (*os.File, error) {
	b := make([]byte, 0, 64)
	b = strconv.AppendUint(b, pl.gen, 10)
	for _, f := range []bool{pl.FS, pl.Net, pl.Scope} {
		b = strconv.AppendBool(b, f)
	}
	for _, ports := range [][]uint16{pl.Connect, pl.Bind} {
		b = append(b, ';')
		for _, p := range ports {
			b = strconv.AppendUint(b, uint64(p), 10)
			b = append(b, ',')
		}
	}
	key := string(b)
	now := time.Now()
	readLayers.Lock()
	defer readLayers.Unlock()
	for k, ls := range readLayers.m {
		ls = slices.DeleteFunc(ls, func(l readLayer) bool {
			if now.Sub(l.at) < expandTTL {
				return false
			}
			l.rs.Close() // the launches made from it hold descriptors of their own
			return true
		})
		if len(ls) == 0 {
			delete(readLayers.m, k)
		} else {
			readLayers.m[k] = ls
		}
	}
	i := slices.IndexFunc(readLayers.m[key], func(l readLayer) bool { return slices.Equal(l.reads, reads) })
	if i < 0 {
		rs, err := rulesetOf(pl, reads, readRights, true)
		if err != nil || rs == nil {
			return rs, err
		}
		if readLayers.m == nil {
			readLayers.m = map[string][]readLayer{}
		}
		readLayers.m[key] = append(readLayers.m[key], readLayer{at: now, reads: reads, rs: rs})
		i = len(readLayers.m[key]) - 1
	}
	fd, err := dupCloexec(int(readLayers.m[key][i].rs.Fd()))
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "landlock-ruleset"), nil
}

// dupCloexec duplicates fd, close-on-exec.
func dupCloexec(fd int) (int, error) {
	nfd, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
	if e != 0 {
		return -1, e
	}
	return int(nfd), nil
}
