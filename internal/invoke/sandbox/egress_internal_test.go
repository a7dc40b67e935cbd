package sandbox

import (
	"slices"
	"testing"

	"github.com/toolhost/toolhost/internal/invoke/egress"
	"github.com/toolhost/toolhost/tool"
)

// TestCompileHostRules: a rule naming a host opens no port (the egress
// proxy's port is granted instead); an IP literal, localhost or "*" keeps
// the port rule; the proxy gets every allowed rule.
func TestCompileHostRules(t *testing.T) {
	root := tree(t, nil, nil)
	p443, p5432, p8080 := uint16(443), uint16(5432), uint16(8080)
	https := "https"
	tests := []struct {
		name    string
		rules   []tool.AccessNet
		connect []uint16
		bind    []uint16
		proxy   []egress.Rule
	}{
		{"a name", []tool.AccessNet{{Host: "api.github.com", Port: &p443, Allow: true}}, nil, nil,
			[]egress.Rule{{Host: "api.github.com", Port: 443}}},
		{"a name by scheme", []tool.AccessNet{{Host: "Example.COM.", Scheme: &https, Allow: true}}, nil, nil,
			[]egress.Rule{{Host: "Example.COM.", Port: 443}}},
		{"a name with bind", []tool.AccessNet{{Host: "dev.test", Port: &p8080, Allow: true, Bind: true}}, nil, []uint16{8080},
			[]egress.Rule{{Host: "dev.test", Port: 8080}}},
		{"a name and an IP literal", []tool.AccessNet{{Host: "api.github.com", Port: &p443, Allow: true}, {Host: "10.0.0.5", Port: &p5432, Allow: true}}, []uint16{5432}, nil,
			[]egress.Rule{{Host: "api.github.com", Port: 443}, {Host: "10.0.0.5", Port: 5432}}},
		{"an IPv6 literal", []tool.AccessNet{{Host: "[::1]", Port: &p8080, Allow: true}}, []uint16{8080}, nil, nil},
		{"localhost", []tool.AccessNet{{Host: "localhost", Port: &p8080, Allow: true}}, []uint16{8080}, nil, nil},
		{"any host", []tool.AccessNet{{Host: "*", Port: &p443, Allow: true}}, []uint16{443}, nil, nil},
		{"a denied name", []tool.AccessNet{{Host: "api.github.com", Port: &p443}}, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Policy{Mode: ModeOn, Access: tool.Access{Net: tt.rules}}
			pl := p.Compile("/usr/bin/tool", root, "/home/u", "")
			if !slices.Equal(pl.Connect, tt.connect) || !slices.Equal(pl.Bind, tt.bind) {
				t.Errorf("connect %v bind %v, want %v %v", pl.Connect, pl.Bind, tt.connect, tt.bind)
			}
			if got := p.proxyRules(); !slices.Equal(got, tt.proxy) {
				t.Errorf("proxy rules %v, want %v", got, tt.proxy)
			}
			if got := p.Probe().proxyRules(); got != nil {
				t.Errorf("a probe's proxy rules %v, want none", got)
			}
		})
	}
}
