package sandbox

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhost/toolhost/internal/invoke/egress"
	"github.com/toolhost/toolhost/tool"
)

// viaProxy reports whether an allowed rule is enforced by the egress
// proxy rather than by a port rule: its host is a DNS name. A rule whose
// host is an IP literal, "localhost" or "*" opens its port to every host,
// as Landlock can do no better, so that a client of any protocol, not
// only HTTP through a proxy, reaches it.
func viaProxy(r tool.AccessNet) bool {
	h := strings.TrimSuffix(strings.ToLower(r.Host), ".")
	if !r.Allow || h == "" || h == "*" || h == "localhost" {
		return false
	}
	_, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err != nil
}

// proxyRules are the rules the egress proxy applies for p, nil when no
// rule needs it: every allowed rule, so that a client sending all its
// requests through the proxy reaches what a port rule opens too.
func (p *Policy) proxyRules() []egress.Rule {
	if p.readOnly || !slices.ContainsFunc(p.Net, viaProxy) {
		return nil
	}
	var rules []egress.Rule
	for _, r := range p.Net {
		if !r.Allow {
			continue
		}
		for _, port := range ports(r) {
			rules = append(rules, egress.Rule{Host: strings.Trim(r.Host, "[]"), Port: port})
		}
	}
	return rules
}

// useProxy registers the launch with the egress proxy when a rule of p
// names a host. The tool's environment points its HTTP clients at the
// proxy, and Cleanup revokes its credential. The returned port is the
// proxy's, which the plan must let the tool connect to. It is 0 when no
// rule names a host.
func (l *Launch) useProxy(p *Policy) (uint16, error) {
	rules := p.proxyRules()
	if rules == nil {
		return 0, nil
	}
	call, err := egress.Shared.Register(rules)
	if err != nil {
		return 0, err
	}
	// The call's variables replace any of the same name. The proxy serves
	// every granted host, loopback ones included: a NO_PROXY from the
	// host would only send a client past it, to EACCES.
	l.Env = slices.DeleteFunc(l.Env, func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return strings.EqualFold(name, "NO_PROXY") || slices.ContainsFunc(call.Env, func(v string) bool {
			return strings.HasPrefix(v, name+"=")
		})
	})
	l.Env = append(l.Env, call.Env...)
	l.egress = call
	clean := l.Cleanup
	l.Cleanup = func() { call.End(); clean() }
	return call.Port, nil
}

// Refused returns the denial of the first connection the egress proxy
// refused to the launch's process for want of a rule, nil when none.
func (l *Launch) Refused() *Denial {
	if l == nil || l.egress == nil {
		return nil
	}
	r := l.egress.Refused()
	if r == nil {
		return nil
	}
	hp := net.JoinHostPort(r.Host, strconv.Itoa(int(r.Port)))
	if r.Addr.IsValid() {
		return grant(fmt.Sprintf("a connection to %s, which resolves to %s, an address of this machine or its link", hp, r.Addr),
			"access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, r.Addr, r.Port))
	}
	return grant("a connection to "+hp, "access.net", fmt.Sprintf(`{host="%s", port=%d, allow=true}`, r.Host, r.Port))
}

// connectProxy lets the plan's tool connect to the egress proxy's port.
func (pl *Plan) connectProxy(port uint16) {
	if port != 0 && pl.Net && !slices.Contains(pl.Connect, port) {
		pl.Connect = append(pl.Connect, port)
	}
}
