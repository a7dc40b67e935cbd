package schemacache

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

	"github.com/toolhost/toolhost/internal/invoke"
)

// Key identifies what a schema request would run, for the persistent
// schema cache. It changes when the binary or a script it is given is
// rebuilt or edited. It changes when the command, working directory or
// environment changes. It is an opaque hex string, safe as a file name.
// Deciding what may be persisted is the cache's business. The spawner only
// says where the executable is ([invoke.Executable]).
type Key string

// StatKey returns the persistent-cache key of spec run with workspace root
// root. It is a hash of these:
//
//   - the resolved executable's stat ([StatFile]). That is path, size,
//     modification time in ns, and device, inode and change time where the
//     system has them. No tool can set the change time back. So a rewrite
//     that keeps the size and restores the mtime, as cp -p or tar do,
//     still changes the key.
//   - the full argv as configured, the working directory, ClearEnv and the
//     sorted Env.
//   - the same stat for every argument naming an existing regular file,
//     relative to the working directory. That is a script passed to an
//     interpreter.
//
// ok is false when no trustworthy key exists. That is so for shell
// commands, an executable that cannot be resolved, and a templated first
// token. It is so for launchers that build or fetch what they run: go run,
// go tool, cargo run, npx, npm exec, pnpm dlx, yarn dlx, bunx, uv run,
// uvx, pipx run, poetry run, deno run, dotnet run, env, python -m …. Their
// answers are not persisted.
func StatKey(spec *invoke.Spec, root string) (Key, bool) {
	if spec.Shell || len(spec.Command) == 0 || strings.Contains(spec.Command[0], "{{") || untrusted(spec.Command) {
		return "", false
	}
	path, dir, err := invoke.Executable(spec, root)
	if err != nil {
		return "", false
	}
	exe, ok := StatFile(path)
	if !ok {
		return "", false
	}
	h := NewHash(keyVersion)
	h.File(exe)
	h.Strings(spec.Command)
	h.Str(dir)
	h.Bool(spec.ClearEnv)
	h.Env(spec.Env)
	for _, arg := range spec.Command[1:] {
		if arg == "" || strings.Contains(arg, "{{") {
			continue
		}
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fk, ok := StatFile(p); ok {
			h.File(fk)
		}
	}
	return Key(h.Sum()), true
}

// keyVersion changes whenever what StatKey hashes changes. So no old key
// can equal a new one by accident. 3: the fields are hashed directly
// ([Hash]), no longer as JSON.
const keyVersion = 3

// Hash is a SHA-256 of a sequence of typed fields. Each string is preceded
// by its length. So two different sequences never hash the same bytes:
// "ab","c" and "a","bc" differ.
type Hash struct {
	h   hash.Hash
	buf [binary.MaxVarintLen64]byte
}

// NewHash returns a hash whose first field is version (of what is hashed).
func NewHash(version int) *Hash {
	k := &Hash{h: sha256.New()}
	k.Int(int64(version))
	return k
}

// Int hashes an integer.
func (k *Hash) Int(v int64) {
	k.h.Write(binary.AppendVarint(k.buf[:0], v))
}

// Bool hashes a boolean.
func (k *Hash) Bool(b bool) {
	if b {
		k.Int(1)
	} else {
		k.Int(0)
	}
}

// Str hashes a string with its length.
func (k *Hash) Str(s string) {
	k.Int(int64(len(s)))
	io.WriteString(k.h, s)
}

// Strings hashes a list with its length.
func (k *Hash) Strings(ss []string) {
	k.Int(int64(len(ss)))
	for _, s := range ss {
		k.Str(s)
	}
}

// Env hashes a map with its length, in key order.
func (k *Hash) Env(m map[string]string) {
	k.Int(int64(len(m)))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		k.Str(name)
		k.Str(m[name])
	}
}

// File hashes a file's key. A marker before it keeps the files of a list
// apart from the fields around them.
func (k *Hash) File(f FileKey) {
	k.Str("file")
	k.Str(f.Path)
	k.Int(f.Size)
	k.Int(f.Mtime)
	k.Int(int64(f.Dev))
	k.Int(int64(f.Ino))
	k.Int(f.Ctime)
}

// Sum is the hash in hex, 64 characters.
func (k *Hash) Sum() string {
	return hex.EncodeToString(k.h.Sum(nil))
}

// FileKey identifies one file's version.
type FileKey struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime_ns"`
	Dev   uint64 `json:"dev,omitempty"`
	Ino   uint64 `json:"ino,omitempty"`
	Ctime int64  `json:"ctime_ns,omitempty"` // status change time: moves on every write, rename or chmod
}

// StatFile returns the key of p when it names a regular file, through
// symlinks. The system may give a device and inode. They then identify
// the file a symlink leads to, and the key's path is p made absolute. No
// symlink is read, as a retargeted symlink leads to another inode.
// Elsewhere the path is the one after symlinks.
func StatFile(p string) (FileKey, bool) {
	var k FileKey
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
// file. They build, fetch or resolve what they run. A nil list means any
// arguments. Otherwise the first non-flag argument must be one of them.
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

// untrusted reports whether argv runs through a launcher (see launchers).
// It also reports an interpreter run on a module (python -m) rather than a
// file.
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
