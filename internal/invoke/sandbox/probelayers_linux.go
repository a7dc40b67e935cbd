package sandbox

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// A probe (a schema or format_arguments request) is confined by two
// Landlock layers, each of which must allow an access. The first handles
// reading and running, the network and the scope: it is the same for the
// probes of every binary that reads the same. So it is made once a
// second and shared. The second handles every other file right and
// grants the probe's own: its private TMPDIR and the writable devices.
// A cold listing then builds one large ruleset, not one per binary.

// readRights are the rights of the first layer.
const readRights = ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSExecute

// readLayers are the first layers made within expandTTL, by their
// grants and the expansion they come from: a directory that changed makes
// a new expansion, and so a new layer.
var readLayers struct {
	sync.Mutex
	m map[string]readLayer
}

type readLayer struct {
	at time.Time
	rs *os.File
}

// probeRulesets returns the two layers of the probe plan pl, whose
// executable is exe and private TMPDIR tmp: the first a descriptor of its
// own on the shared ruleset.
func probeRulesets(pl *Plan, exe, tmp string) (read, write *os.File, err error) {
	var reads, writes []PathGrant
	shared := true // no grant of this probe's own: the layer may be shared
	for _, g := range pl.Paths {
		own := g.Path == exe || g.Path == tmp
		if a := g.Access & readRights; a != 0 && !(own && covered(pl.Paths, g.Path, a, exe, tmp)) {
			reads = append(reads, PathGrant{g.Path, a})
			shared = shared && !own
		}
		if a := g.Access &^ readRights; a != 0 {
			writes = append(writes, PathGrant{g.Path, a})
		}
	}
	if shared {
		read, err = sharedReadLayer(pl, reads)
	} else { // a grant of its own file, which a rebuild replaces: made for this probe
		read, err = rulesetOf(pl, reads, readRights, true)
	}
	if err != nil {
		return nil, nil, err
	}
	write, err = rulesetOf(pl, writes, handledFS&^readRights, false)
	if err != nil {
		read.Close()
		return nil, nil, err
	}
	return read, write, nil
}

// covered reports whether a grant of paths other than exe's and tmp's
// gives access beneath an ancestor of p.
func covered(paths []PathGrant, p string, access uint64, exe, tmp string) bool {
	for _, g := range paths {
		if g.Path != exe && g.Path != tmp && g.Access&access == access && within(g.Path, p) {
			return true
		}
	}
	return false
}

// sharedReadLayer returns a descriptor of the first layer granting reads,
// made now or within expandTTL.
func sharedReadLayer(pl *Plan, reads []PathGrant) (*os.File, error) {
	var b strings.Builder
	b.WriteString(strconv.FormatUint(pl.gen, 10) + strconv.FormatBool(pl.FS) + strconv.FormatBool(pl.Net) + strconv.FormatBool(pl.Scope))
	for _, ports := range [][]uint16{pl.Connect, pl.Bind} {
		for _, p := range ports {
			b.WriteString(strconv.Itoa(int(p)) + ",")
		}
		b.WriteByte(';')
	}
	for _, g := range reads {
		b.WriteString(g.Path)
		b.WriteByte(0)
		b.WriteString(strconv.FormatUint(g.Access, 16))
		b.WriteByte(0)
	}
	key := b.String()
	now := time.Now()
	readLayers.Lock()
	defer readLayers.Unlock()
	for k, l := range readLayers.m {
		if now.Sub(l.at) >= expandTTL {
			l.rs.Close() // the launches made from it hold descriptors of their own
			delete(readLayers.m, k)
		}
	}
	l, ok := readLayers.m[key]
	if !ok {
		rs, err := rulesetOf(pl, reads, readRights, true)
		if err != nil || rs == nil {
			return rs, err
		}
		if readLayers.m == nil {
			readLayers.m = map[string]readLayer{}
		}
		l = readLayer{at: now, rs: rs}
		readLayers.m[key] = l
	}
	fd, err := dupCloexec(int(l.rs.Fd()))
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
