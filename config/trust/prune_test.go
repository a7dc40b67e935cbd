package trust

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestPrune: a revoked record goes once revoked for longer than
// revokedKeep, or once its workspace's directory is gone; until then
// Verify still calls its files "untrusted", after that "new". Trusted
// records and files prune does not believe stay.
func TestPrune(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	files := map[string]string{"tools.toml": Sum([]byte("x"))}
	const untrusted, never = "untrusted tools.toml", "new tools.toml"
	tests := []struct {
		name    string
		after   time.Duration                                           // prune's now, from now
		setup   func(t *testing.T, s *Store, root string) (keep string) // after Trust and Revoke of root; returns a file that must stay ("" none)
		removed bool                                                    // root's revoked record is absent after prune
		count   int                                                     // what prune reports
	}{
		{"revoked just now", 0, nil, false, 0},
		{"revoked a day less than revokedKeep ago", revokedKeep - 24*time.Hour, nil, false, 0},
		{"revoked longer than revokedKeep ago", revokedKeep + time.Hour, nil, true, 1},
		{"the workspace's directory is gone", 0, func(t *testing.T, _ *Store, root string) string {
			if err := os.Remove(root); err != nil {
				t.Fatal(err)
			}
			return ""
		}, true, 1},
		{"the modification time set back does not make it old", 0, func(t *testing.T, s *Store, root string) string {
			if runtime.GOOS != "linux" {
				t.Skip("the change time is read on Linux")
			}
			old := time.Now().Add(-2 * revokedKeep)
			if err := os.Chtimes(s.revokedPath(canonical(t, root)), old, old); err != nil {
				t.Fatal(err)
			}
			return ""
		}, false, 0},
		{"a trusted record of a gone workspace", revokedKeep + time.Hour, func(t *testing.T, s *Store, _ string) string {
			other := t.TempDir()
			if _, err := s.Trust(other, files); err != nil {
				t.Fatal(err)
			}
			p := s.path(canonical(t, other))
			if err := os.Remove(other); err != nil {
				t.Fatal(err)
			}
			return p
		}, true, 1},
		{"a symbolic link named like a revoked record", revokedKeep + time.Hour, func(t *testing.T, s *Store, root string) string {
			p := s.revokedPath(canonical(t, root))
			target := filepath.Join(t.TempDir(), "target")
			if err := os.Rename(p, target); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			return target
		}, false, 0},
		{"not named for its root", revokedKeep + time.Hour, func(t *testing.T, s *Store, root string) string {
			p := s.revokedPath(canonical(t, root))
			if err := os.Rename(p, filepath.Join(s.Dir, "0123.revoked")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(s.Dir, "0123.revoked")
		}, true, 0}, // moved away: absent, and the moved file kept
		{"writable by others", revokedKeep + time.Hour, func(t *testing.T, s *Store, root string) string {
			if err := os.Chmod(s.revokedPath(canonical(t, root)), 0o666); err != nil {
				t.Fatal(err)
			}
			return ""
		}, false, 0},
		{"malformed", revokedKeep + time.Hour, func(t *testing.T, s *Store, root string) string {
			if err := os.WriteFile(s.revokedPath(canonical(t, root)), []byte("{"), 0o600); err != nil {
				t.Fatal(err)
			}
			return ""
		}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Store{Dir: filepath.Join(t.TempDir(), "trust")}
			root := t.TempDir()
			canon := canonical(t, root)
			if _, err := s.Trust(root, files); err != nil {
				t.Fatal(err)
			}
			if ok, err := s.Revoke(root); !ok || err != nil {
				t.Fatalf("Revoke = %v, %v", ok, err)
			}
			keep := ""
			if tt.setup != nil {
				keep = tt.setup(t, s, root)
			}
			if got := s.prune(time.Now().Add(tt.after)); got != tt.count {
				t.Errorf("prune removed %d, want %d", got, tt.count)
			}
			if keep != "" {
				if _, err := os.Lstat(keep); err != nil {
					t.Errorf("%s: %v, want it kept", keep, err)
				}
			}
			_, err := os.Lstat(s.revokedPath(canon))
			if gone := os.IsNotExist(err); gone != tt.removed {
				t.Errorf("revoked record removed %v, want %v (Lstat: %v)", gone, tt.removed, err)
			}
			if tt.setup != nil {
				return // the record was altered: Verify's word is another test's
			}
			wantWord := untrusted
			if tt.removed {
				wantWord = never
			}
			verr := s.Verify(root, files)
			if e, ok := verr.(*Error); !ok || e.Differences() != wantWord {
				t.Errorf("Verify after prune = %v, want %q", verr, wantWord)
			}
		})
	}
}

// TestRevokeAndTrustPrune: Revoke and Trust prune the store; Revoke
// stamps the revoked record with the time of revocation.
func TestRevokeAndTrustPrune(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions")
	}
	s := &Store{Dir: filepath.Join(t.TempDir(), "trust")}
	files := map[string]string{"tools.toml": Sum(nil)}
	gone, other, third := t.TempDir(), t.TempDir(), t.TempDir()
	for _, r := range []string{gone, other, third} {
		if _, err := s.Trust(r, files); err != nil {
			t.Fatal(err)
		}
	}
	goneRec := s.revokedPath(canonical(t, gone))
	old := time.Now().Add(-2 * revokedKeep)
	if err := os.Chtimes(s.path(canonical(t, gone)), old, old); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Revoke(gone); !ok || err != nil {
		t.Fatalf("Revoke = %v, %v", ok, err)
	}
	fi, err := os.Stat(goneRec)
	if err != nil {
		t.Fatal(err)
	}
	if age := time.Since(fi.ModTime()); age > time.Minute || age < -time.Minute {
		t.Errorf("revoked record's modification time is %v old, want the time of Revoke", age)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Revoke(other); !ok || err != nil { // prunes gone's
		t.Fatalf("Revoke = %v, %v", ok, err)
	}
	if _, err := os.Lstat(goneRec); !os.IsNotExist(err) {
		t.Errorf("Revoke left the revoked record of a gone workspace: %v", err)
	}
	otherRec := s.revokedPath(canonical(t, other))
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trust(third, files); err != nil { // prunes other's
		t.Fatal(err)
	}
	if _, err := os.Lstat(otherRec); !os.IsNotExist(err) {
		t.Errorf("Trust left the revoked record of a gone workspace: %v", err)
	}
	if err := s.Verify(third, files); err != nil {
		t.Errorf("Verify of the trusted workspace after pruning: %v", err)
	}
}

func canonical(t *testing.T, root string) string {
	t.Helper()
	c, err := Canonical(root)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
