package resolver

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolhost/toolhost/invoke"
)

// cacheKey identifies what a schema request would run, for the persistent
// schema cache: it changes when the binary or a script it is given is
// rebuilt or edited, or when the command, working directory or environment
// changes. It is an opaque hex string, safe as a file name. Deciding what
// may be persisted is the cache's business; the spawner only says where
// the executable is ([invoke.Executable]).
type cacheKey string

// statKeyOf returns the persistent-cache key of spec run with workspace root
// root: a hash of the resolved executable ([statFile]: path, size,
// modification time in ns, and where the system has them device, inode and
// change time, which no tool can set back: a rewrite that keeps the size
// and restores the mtime, as cp -p or tar do, still changes the key), the
// full argv as configured, the working directory, ClearEnv and the sorted
// Env, and the same stat for every argument naming an existing regular file
// (a script passed to an interpreter, relative to the working directory).
//
// ok is false when no trustworthy key exists: shell commands, an
// executable that cannot be resolved, a templated first token, and
// launchers that build or fetch what they run (go run, go tool, cargo run,
// npx, npm exec, pnpm dlx, yarn dlx, bunx, uv run, uvx, pipx run, poetry
// run, deno run, dotnet run, env, python -m …). Their answers are not
// persisted.
func statKeyOf(spec *invoke.Spec, root string) (cacheKey, bool) {
	if spec.Shell || len(spec.Command) == 0 || strings.Contains(spec.Command[0], "{{") || untrusted(spec.Command) {
		return "", false
	}
	path, dir, err := invoke.Executable(spec, root)
	if err != nil {
		return "", false
	}
	exe, ok := statFile(path)
	if !ok {
		return "", false
	}
	h := newKeyHash(cacheKeyVersion)
	h.file(exe)
	h.strings(spec.Command)
	h.str(dir)
	h.bool(spec.ClearEnv)
	h.env(spec.Env)
	for _, arg := range spec.Command[1:] {
		if arg == "" || strings.Contains(arg, "{{") {
			continue
		}
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fk, ok := statFile(p); ok {
			h.file(fk)
		}
	}
	return cacheKey(h.sum()), true
}

// cacheKeyVersion changes whenever what statKeyOf hashes changes, so that
// no old key can equal a new one by accident. 3: the fields are hashed
// directly ([keyHash]), no longer as JSON.
const cacheKeyVersion = 3

// keyHash is a SHA-256 of a sequence of typed fields: each string is
// preceded by its length, so two different sequences never hash the same
// bytes ("ab","c" and "a","bc" differ).
type keyHash struct {
	h   hash.Hash
	buf [binary.MaxVarintLen64]byte
}

func newKeyHash(version int) *keyHash {
	k := &keyHash{h: sha256.New()}
	k.int(int64(version))
	return k
}

func (k *keyHash) int(v int64) {
	k.h.Write(binary.AppendVarint(k.buf[:0], v))
}

func (k *keyHash) bool(b bool) {
	if b {
		k.int(1)
	} else {
		k.int(0)
	}
}

func (k *keyHash) str(s string) {
	k.int(int64(len(s)))
	io.WriteString(k.h, s)
}

// strings hashes a list with its length.
func (k *keyHash) strings(ss []string) {
	k.int(int64(len(ss)))
	for _, s := range ss {
		k.str(s)
	}
}

// env hashes a map with its length, in key order.
func (k *keyHash) env(m map[string]string) {
	k.int(int64(len(m)))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		k.str(name)
		k.str(m[name])
	}
}

// file hashes a file's key; a marker before it keeps the files of a list
// apart from the fields around them.
func (k *keyHash) file(f fileKey) {
	k.str("file")
	k.str(f.Path)
	k.int(f.Size)
	k.int(f.Mtime)
	k.int(int64(f.Dev))
	k.int(int64(f.Ino))
	k.int(f.Ctime)
}

// sum is the hash in hex, 64 characters.
func (k *keyHash) sum() string {
	return hex.EncodeToString(k.h.Sum(nil))
}

// fileKey identifies one file's version.
type fileKey struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime_ns"`
	Dev   uint64 `json:"dev,omitempty"`
	Ino   uint64 `json:"ino,omitempty"`
	Ctime int64  `json:"ctime_ns,omitempty"` // status change time: moves on every write, rename or chmod
}

// statFile returns the key of p when it names a regular file (through
// symlinks). Where the system gives a device and inode, they identify the
// file a symlink leads to, and the key's path is p made absolute (no
// symlink is read: a retargeted symlink leads to another inode); elsewhere
// the path is the one after symlinks.
func statFile(p string) (fileKey, bool) {
	var k fileKey
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return k, false
	}
	k.Dev, k.Ino, k.Ctime = sysStat(fi)
	if k.Ino == 0 {
		if p, err = filepath.EvalSymlinks(p); err != nil {
			return k, false
		}
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	k.Path, k.Size, k.Mtime = p, fi.Size(), fi.ModTime().UnixNano()
	return k, true
}

// launchers names commands whose output depends on more than their own
// file: they build, fetch or resolve what they run. A nil list means any
// arguments; otherwise the first non-flag argument must be one of them.
var launchers = map[string][]string{
	"go":      {"run", "tool"},
	"cargo":   {"run"},
	"npx":     nil,
	"bunx":    nil,
	"pnpx":    nil,
	"uvx":     nil,
	"env":     nil,
	"npm":     {"exec", "x", "run", "run-script", "start"},
	"pnpm":    {"dlx", "exec", "run"},
	"yarn":    {"dlx", "run", "exec"},
	"bun":     {"run", "x"},
	"uv":      {"run", "tool"},
	"pipx":    {"run"},
	"poetry":  {"run"},
	"deno":    {"run"},
	"dotnet":  {"run"},
	"stack":   {"run", "exec"},
	"cabal":   {"run", "exec"},
	"swift":   {"run"},
	"gradle":  {"run"},
	"mvn":     nil,
	"nix":     {"run", "shell", "develop"},
	"docker":  {"run", "exec", "compose"},
	"podman":  {"run", "exec"},
	"bundle":  {"exec"},
	"mix":     {"run"},
	"sbt":     nil,
	"flatpak": {"run"},
}

// untrusted reports whether argv runs through a launcher (see launchers),
// or runs an interpreter on a module (python -m) rather than a file.
func untrusted(argv []string) bool {
	base := filepath.Base(argv[0])
	if subs, ok := launchers[base]; ok {
		if subs == nil {
			return true
		}
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "-") {
				continue
			}
			return slices.Contains(subs, a)
		}
		return false
	}
	if strings.HasPrefix(base, "python") {
		return slices.Contains(argv[1:], "-m")
	}
	return false
}
