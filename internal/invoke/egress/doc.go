// Package egress is the HTTP proxy through which a sandboxed tool reaches
// the hosts its access.net rules name.
//
// Landlock filters TCP connections by port, not by host. So a rule that
// names a host does not open its port to the tool. The tool may connect
// only to this proxy, on loopback, and the proxy lets each call reach the
// host and port pairs its rules grant, and nothing else:
//
//	call, err := egress.Shared.Register([]egress.Rule{{Host: "api.github.com", Port: 443}})
//	if err != nil { … }
//	defer call.End()                       // its credential and its connections end
//	cmd.Env = append(cmd.Env, call.Env...) // HTTPS_PROXY=http://TOKEN@127.0.0.1:PORT and the others
//	// grant TCP connect to call.Port only; after the run, call.Refused()
//	// names the first connection no rule granted
//
// The proxy tunnels with CONNECT (what clients do for https) and forwards
// plain http requests in absolute form, one per connection. Each request
// carries the call's credential as Proxy-Authorization: a credential that
// is unknown, or whose call has ended, is refused. The proxy resolves the
// name itself and dials the address it checked. So a name rebound between
// the check and the dial reaches nothing else. It refuses an IP literal no
// rule names, and a name resolving to a loopback, link-local, unspecified
// or multicast address, unless the rule names that address or localhost.
//
// One proxy serves the whole process ([Shared]). It starts with the first
// call that needs it and listens until the process ends.
package egress
