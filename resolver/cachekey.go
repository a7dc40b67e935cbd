package resolver

import (
	"github.com/toolhost/toolhost/internal/invoke"

	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// cacheKey identifies what a schema request would run, for the persistent
// schema cache: it changes when the binary or a script it is given is
// rebuilt or edited, or when the command, working directory or environment
// changes. It is an opaque hex string, safe as a file name. Deciding what
// may be persisted is the cache's business; the spawner only says where
// the executable is ([invoke.Executable]).
type cacheKey string

// statKeyOf returns the persistent-cache key of spec run with workspace root
// root: a hash of the resolved executable (path after symlinks, size,
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
	key := struct {
		Version  int               `json:"v"`
		Exe      fileKey           `json:"exe"`
		Argv     []string          `json:"argv"`
		Dir      string            `json:"dir"`
		ClearEnv bool              `json:"clear_env"`
		Env      map[string]string `json:"env"` // encoding/json sorts map keys
		Files    []fileKey         `json:"files"`
	}{Version: 2, Exe: exe, Argv: spec.Command, Dir: dir, ClearEnv: spec.ClearEnv, Env: spec.Env}
	for _, arg := range spec.Command[1:] {
		if arg == "" || strings.Contains(arg, "{{") {
			continue
		}
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fk, ok := statFile(p); ok {
			key.Files = append(key.Files, fk)
		}
	}
	data, err := json.Marshal(key)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(data)
	return cacheKey(hex.EncodeToString(sum[:])), true
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
// symlinks).
func statFile(p string) (fileKey, bool) {
	var k fileKey
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return k, false
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return k, false
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	k.Path, k.Size, k.Mtime = real, fi.Size(), fi.ModTime().UnixNano()
	k.Dev, k.Ino, k.Ctime = sysStat(fi)
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
