package approval

import (
	"encoding/json"
	"testing"
	"time"
)

// TestTickets: a ticket is good once, for its tool and its exact
// arguments, until it expires; a wrong try spends it.
func TestTickets(t *testing.T) {
	args := map[string]any{"path": "a.txt", "n": json.Number("12345678901234567890")}
	same := map[string]any{"n": json.Number("12345678901234567890"), "path": "a.txt"}
	tests := []struct {
		name   string
		redeem func(tk *Tickets, id string) []bool
		want   []bool
	}{
		{"once", func(tk *Tickets, id string) []bool {
			return []bool{tk.Redeem(id, "rm", same), tk.Redeem(id, "rm", args)}
		}, []bool{true, false}},
		{"other tool", func(tk *Tickets, id string) []bool {
			return []bool{tk.Redeem(id, "mv", args), tk.Redeem(id, "rm", args)}
		}, []bool{false, false}},
		{"other arguments", func(tk *Tickets, id string) []bool {
			return []bool{tk.Redeem(id, "rm", map[string]any{"path": "a.txt", "n": json.Number("12345678901234567891")})}
		}, []bool{false}},
		{"unknown id", func(tk *Tickets, id string) []bool {
			return []bool{tk.Redeem(id+"x", "rm", args), tk.Redeem("", "rm", args), tk.Redeem(id, "rm", args)}
		}, []bool{false, false, true}},
		{"expired", func(tk *Tickets, id string) []bool {
			now := time.Now().Add(TTL)
			tk.Now = func() time.Time { return now }
			return []bool{tk.Redeem(id, "rm", args)}
		}, []bool{false}},
		{"just before expiry", func(tk *Tickets, id string) []bool {
			now := time.Now().Add(TTL - time.Second)
			tk.Now = func() time.Time { return now }
			return []bool{tk.Redeem(id, "rm", args)}
		}, []bool{true}},
		{"full: the oldest goes", func(tk *Tickets, id string) []bool {
			var last string
			for range Max {
				last = tk.Issue("other", nil)
			}
			return []bool{tk.Redeem(id, "rm", args), tk.Redeem(last, "other", nil), len(tk.live) == Max-1}
		}, []bool{false, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tk Tickets
			id := tk.Issue("rm", args)
			got := tt.redeem(&tk, id)
			for i := range tt.want {
				if got[i] != tt.want[i] {
					t.Errorf("redeem %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestTicketsDistinct: ids do not repeat.
func TestTicketsDistinct(t *testing.T) {
	var tk Tickets
	seen := map[string]bool{}
	for range 1000 {
		id := tk.Issue("t", nil)
		if seen[id] || len(id) != 24 {
			t.Fatalf("id %q repeated or of length %d", id, len(id))
		}
		seen[id] = true
	}
}
