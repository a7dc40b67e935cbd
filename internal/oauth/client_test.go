package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// std is the fake of a 2025-11-25 server: protected resource metadata,
// authorization server metadata with S256, dynamic registration.
func std() *fake { return &fake{prm: true, asMeta: true, s256: true, register: true} }

func TestAuthorize(t *testing.T) {
	tests := []struct {
		name      string
		fake      *fake
		cfg       Config
		challenge string // the 401's WWW-Authenticate; RM stands for the PRM's URL
		// what the authorization and token requests must carry
		wantScope     string // "" asserts no scope parameter
		wantClientID  string
		wantTokenAuth string // the token request's Authorization header
		wantSecretIn  string // client_secret in the token form
		wantRegs      int
	}{
		{
			name: "metadata from the challenge, dynamic registration, public client",
			fake: std(), challenge: `Bearer resource_metadata="RM"`,
			wantClientID: "dcr-1", wantRegs: 1,
		},
		{
			name: "metadata at the well-known URI, challenge without it",
			fake: std(), challenge: `Bearer`,
			wantClientID: "dcr-1", wantRegs: 1,
		},
		{
			name: "scope from the challenge",
			fake: func() *fake { f := std(); f.scopes = []string{"a", "b"}; return f }(), challenge: `Bearer scope="read write", resource_metadata="RM"`,
			wantScope: "read write", wantClientID: "dcr-1", wantRegs: 1,
		},
		{
			name: "scope from scopes_supported when the challenge has none",
			fake: func() *fake { f := std(); f.scopes = []string{"a", "b"}; return f }(), challenge: `Bearer resource_metadata="RM"`,
			wantScope: "a b", wantClientID: "dcr-1", wantRegs: 1,
		},
		{
			name: "configured scopes win",
			fake: func() *fake { f := std(); f.scopes = []string{"a", "b"}; return f }(), challenge: `Bearer scope="read"`,
			cfg: Config{Scopes: []string{"mine"}}, wantScope: "mine", wantClientID: "dcr-1", wantRegs: 1,
		},
		{
			name:         "registration answers client_secret_post",
			fake:         func() *fake { f := std(); f.regMethod, f.regSecret = AuthPost, "s3"; return f }(),
			wantClientID: "dcr-1", wantSecretIn: "s3", wantRegs: 1,
		},
		{
			name:         "registration answers client_secret_basic",
			fake:         func() *fake { f := std(); f.regMethod, f.regSecret = AuthBasic, "s3"; return f }(),
			wantClientID: "dcr-1", wantTokenAuth: basic("dcr-1", "s3"), wantRegs: 1,
		},
		{
			name: "pre-registered client, basic by default",
			fake: func() *fake { f := std(); f.register = false; return f }(),
			cfg:  Config{ClientID: "pre", ClientSecret: "sec"}, wantClientID: "pre", wantTokenAuth: basic("pre", "sec"),
		},
		{
			name: "pre-registered client, the server lists only post",
			fake: func() *fake { f := std(); f.authMethods = []string{AuthPost}; return f }(),
			cfg:  Config{ClientID: "pre", ClientSecret: "sec"}, wantClientID: "pre", wantSecretIn: "sec",
		},
		{
			name: "client ID metadata document where the server takes one",
			fake: func() *fake { f := std(); f.cimd = true; return f }(),
			cfg:  Config{ClientMetadataURL: "https://example.com/toolhost.json"}, wantClientID: "https://example.com/toolhost.json",
		},
		{
			name: "client ID metadata document configured, the server takes none: registration",
			fake: std(), cfg: Config{ClientMetadataURL: "https://example.com/toolhost.json"}, wantClientID: "dcr-1", wantRegs: 1,
		},
		{
			name: "no metadata at all: the server's origin with /authorize, /token, /register",
			fake: &fake{register: true}, wantClientID: "dcr-1", wantRegs: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.fake)
			store := NewStore(t.TempDir())
			c := New("srv", f.url(), &tt.cfg, &Options{Store: store, Interactive: true, Open: follow})
			req, resp := unauthorized(strings.ReplaceAll(tt.challenge, "RM", f.srv.URL+"/.well-known/oauth-protected-resource/mcp"))
			if err := c.Authorize(t.Context(), req, resp); err != nil {
				t.Fatalf("Authorize: %v", err)
			}
			f.mu.Lock()
			q, form, auth, regs := f.authQuery, f.tokenForm[0], f.tokenAuth[0], f.regs
			f.mu.Unlock()
			sum := sha256.Sum256([]byte(form.Get("code_verifier")))
			for _, c := range []struct{ what, got, want string }{
				{"code_challenge_method", q.Get("code_challenge_method"), "S256"},
				{"code_challenge", q.Get("code_challenge"), base64.RawURLEncoding.EncodeToString(sum[:])},
				{"authorization resource", q.Get("resource"), f.url()},
				{"token resource", form.Get("resource"), f.url()},
				{"scope", q.Get("scope"), tt.wantScope},
				{"client_id", q.Get("client_id"), tt.wantClientID},
				{"token Authorization", auth, tt.wantTokenAuth},
				{"token client_secret", form.Get("client_secret"), tt.wantSecretIn},
				{"grant_type", form.Get("grant_type"), "authorization_code"},
				{"redirect_uri", form.Get("redirect_uri"), q.Get("redirect_uri")},
			} {
				if c.got != c.want {
					t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
				}
			}
			if _, has := q["scope"]; tt.wantScope == "" && has {
				t.Errorf("scope parameter sent (%q), want none", q.Get("scope"))
			}
			if regs != tt.wantRegs {
				t.Errorf("registrations = %d, want %d", regs, tt.wantRegs)
			}
			ts, err := c.TokenSource(t.Context())
			if err != nil || ts == nil {
				t.Fatalf("TokenSource = %v, %v; want a source", ts, err)
			}
			tok, err := ts.Token()
			if err != nil || tok.AccessToken != "token-1" {
				t.Fatalf("Token = %v, %v; want token-1", tok, err)
			}
			// A new client (a new process) finds the token in the store.
			c2 := New("srv", f.url(), &tt.cfg, &Options{Store: store})
			ts2, err := c2.TokenSource(t.Context())
			if err != nil || ts2 == nil {
				t.Fatalf("stored TokenSource = %v, %v", ts2, err)
			}
		})
	}
}

func basic(id, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(id+":"+secret))
}

func TestAuthorizeRefused(t *testing.T) {
	tests := []struct {
		name     string
		fake     *fake
		opts     Options
		challRM  bool
		wantErr  error
		wantText string
	}{
		{"authorization server without S256", func() *fake { f := std(); f.s256 = false; return f }(), Options{Interactive: true}, true, ErrNoPKCE, "code_challenge_methods_supported"},
		{"metadata for another resource", func() *fake { f := std(); f.prmResource = "https://evil.example/mcp"; return f }(), Options{Interactive: true}, true, ErrResourceMismatch, "evil.example"},
		{"no browser allowed", std(), Options{}, true, ErrLoginRequired, "toolhost auth login srv"},
		{"no registration possible", func() *fake { f := std(); f.register = false; return f }(), Options{Interactive: true}, true, ErrNoRegistration, "client_id"},
		{"token endpoint refuses", func() *fake { f := std(); f.tokenError = "invalid_grant"; return f }(), Options{Interactive: true}, true, ErrDenied, "invalid_grant (no)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.fake)
			tt.opts.Open = follow
			c := New("srv", f.url(), nil, &tt.opts)
			req, resp := unauthorized(`Bearer resource_metadata="` + f.srv.URL + `/.well-known/oauth-protected-resource/mcp"`)
			err := c.Authorize(t.Context(), req, resp)
			var oe *Error
			if !errors.Is(err, tt.wantErr) || !errors.As(err, &oe) {
				t.Fatalf("Authorize = %v, want an *Error wrapping %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error()+" fix: "+oe.Fix, tt.wantText) {
				t.Errorf("Authorize = %v (fix %q), want it to mention %q", err, oe.Fix, tt.wantText)
			}
		})
	}
}

// TestStepUpNeedsLogin: a step-up where no browser may open says which
// scopes to configure before signing in again.
func TestStepUpNeedsLogin(t *testing.T) {
	f := newFake(t, std())
	store := NewStore(t.TempDir())
	if err := store.Save(&Record{Resource: f.url(), ClientID: "c", Token: &Token{AccessToken: "t", Scopes: []string{"read"}}}); err != nil {
		t.Fatal(err)
	}
	c := New("srv", f.url(), nil, &Options{Store: store})
	req, resp := forbidden(`Bearer error="insufficient_scope", scope="write"`)
	err := c.Authorize(t.Context(), req, resp)
	var oe *Error
	want := `the server asks for more scopes: set scopes = ["read", "write"] in the oauth table of srv, then run toolhost auth login srv (it opens a browser to sign in)`
	if !errors.Is(err, ErrLoginRequired) || !errors.As(err, &oe) || oe.Fix != want {
		t.Errorf("Authorize = %v (fix %q), want ErrLoginRequired with fix %q", err, oe.Fix, want)
	}
}

// TestPlainHTTP: no sign-in for a server whose token would cross a
// network in clear text.
func TestPlainHTTP(t *testing.T) {
	c := New("srv", "http://mcp.example/mcp", nil, &Options{Interactive: true, Open: follow})
	req, resp := unauthorized("Bearer")
	err := c.Authorize(t.Context(), req, resp)
	var oe *Error
	if !errors.Is(err, ErrPlainHTTP) || !errors.As(err, &oe) || oe.Fix != "use the server's https:// URL" {
		t.Errorf("Authorize = %v, want ErrPlainHTTP with its fix", err)
	}
}

func TestStepUp(t *testing.T) {
	f := newFake(t, std())
	c := New("srv", f.url(), nil, &Options{Interactive: true, Open: follow, MaxAuthorize: 3})
	rm := f.srv.URL + "/.well-known/oauth-protected-resource/mcp"
	steps := []struct {
		status    int
		challenge string
		wantScope string // of the authorization request; "" for none made
		wantErr   error
	}{
		{401, `Bearer scope="read", resource_metadata="` + rm + `"`, "read", nil},
		{403, `Bearer error="insufficient_scope", scope="write", resource_metadata="` + rm + `"`, "read write", nil},
		{403, `Bearer error="insufficient_scope", scope="read write"`, "", ErrTooManyAuthorizations}, // held already: asking again cannot help
		{403, `Bearer error="invalid_token"`, "", nil},                                               // not a step-up: left to the caller
		{403, `Bearer error="insufficient_scope", scope="admin"`, "read write admin", nil},
		{403, `Bearer error="insufficient_scope", scope="root"`, "", ErrTooManyAuthorizations}, // the fourth authorization
	}
	for i, st := range steps {
		f.mu.Lock()
		f.authQuery = nil
		f.mu.Unlock()
		req, resp := unauthorized(st.challenge)
		resp.StatusCode = st.status
		err := c.Authorize(t.Context(), req, resp)
		if !errors.Is(err, st.wantErr) || (st.wantErr == nil && err != nil) {
			t.Fatalf("step %d: Authorize = %v, want %v", i, err, st.wantErr)
		}
		f.mu.Lock()
		q := f.authQuery
		f.mu.Unlock()
		got := ""
		if q != nil {
			got = q.Get("scope")
		}
		if got != st.wantScope {
			t.Errorf("step %d: authorization scope = %q, want %q", i, got, st.wantScope)
		}
	}
}

func TestRefresh(t *testing.T) {
	f := newFake(t, &fake{prm: true, asMeta: true, s256: true, register: true, expiresIn: 3600, refreshToken: "r1"})
	store := NewStore(t.TempDir())
	c := New("srv", f.url(), nil, &Options{Store: store, Interactive: true, Open: follow})
	req, resp := unauthorized("Bearer")
	if err := c.Authorize(t.Context(), req, resp); err != nil {
		t.Fatal(err)
	}
	// The stored token expired: the next process refreshes it.
	rec, err := store.Load(f.url())
	if err != nil || rec == nil {
		t.Fatalf("Load = %v, %v", rec, err)
	}
	rec.Token.Expiry = time.Now().Add(-time.Minute)
	if err := store.Save(rec); err != nil {
		t.Fatal(err)
	}
	c2 := New("srv", f.url(), nil, &Options{Store: store})
	ts, err := c2.TokenSource(t.Context())
	if err != nil || ts == nil {
		t.Fatalf("TokenSource = %v, %v", ts, err)
	}
	tok, err := ts.Token()
	if err != nil || tok.AccessToken != "token-2" {
		t.Fatalf("Token = %+v, %v; want the refreshed token-2", tok, err)
	}
	f.mu.Lock()
	form := f.tokenForm[1]
	f.mu.Unlock()
	for k, want := range map[string]string{"grant_type": "refresh_token", "refresh_token": "r1", "resource": f.url(), "client_id": "dcr-1"} {
		if got := form.Get(k); got != want {
			t.Errorf("refresh %s = %q, want %q", k, got, want)
		}
	}
	if rec, _ := store.Load(f.url()); rec.Token.AccessToken != "token-2" || rec.Token.RefreshToken != "r1" {
		t.Errorf("stored after refresh: %+v, want token-2 with refresh token r1 kept", rec.Token)
	}

	// A 401 to a token that has not expired: a refresh, no sign-in.
	c4 := New("srv", f.url(), nil, &Options{Store: store}) // not interactive: a sign-in would fail
	req, resp = unauthorized("Bearer")
	if err := c4.Authorize(t.Context(), req, resp); err != nil {
		t.Fatalf("Authorize with a refresh token = %v, want a refresh", err)
	}
	if rec, _ := store.Load(f.url()); rec.Token.AccessToken != "token-3" {
		t.Errorf("stored after the 401: %+v, want the refreshed token-3", rec.Token)
	}

	// A refresh the server refuses drops the token: the request goes
	// without, and its 401 signs in again.
	f.mu.Lock()
	f.tokenError = "invalid_grant"
	f.mu.Unlock()
	rec, _ = store.Load(f.url())
	rec.Token.Expiry = time.Now().Add(-time.Minute)
	_ = store.Save(rec)
	c3 := New("srv", f.url(), nil, &Options{Store: store})
	ts, _ = c3.TokenSource(t.Context())
	if _, err := ts.Token(); err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Errorf("Token after a refused refresh = %v, want invalid_grant", err)
	}
	if ts, _ := c3.TokenSource(t.Context()); ts != nil {
		t.Errorf("TokenSource after a refused refresh = %v, want nil", ts)
	}
}

func TestClientCredentials(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	tests := []struct {
		name     string
		cfg      Config
		methods  []string
		wantAuth string
		wantJWT  bool
	}{
		{"client_secret_basic", Config{Grant: GrantClientCredentials, ClientID: "m", ClientSecret: "s", Scopes: []string{"x"}}, []string{AuthBasic}, basic("m", "s"), false},
		{"private_key_jwt", Config{Grant: GrantClientCredentials, ClientID: "m", PrivateKey: keyPEM}, []string{AuthJWT}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, &fake{prm: true, asMeta: true, s256: true, authMethods: tt.methods})
			c := New("srv", f.url(), &tt.cfg, nil) // not interactive: a machine needs no browser
			req, resp := unauthorized("Bearer")
			if err := c.Authorize(t.Context(), req, resp); err != nil {
				t.Fatal(err)
			}
			f.mu.Lock()
			form, auth := f.tokenForm[0], f.tokenAuth[0]
			f.mu.Unlock()
			if form.Get("grant_type") != GrantClientCredentials || form.Get("resource") != f.url() || auth != tt.wantAuth {
				t.Errorf("token request: form %v, Authorization %q; want client_credentials, resource %s, Authorization %q", form, auth, f.url(), tt.wantAuth)
			}
			if !tt.wantJWT {
				return
			}
			if form.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
				t.Errorf("client_assertion_type = %q", form.Get("client_assertion_type"))
			}
			checkJWT(t, form.Get("client_assertion"), &key.PublicKey, "m", f.srv.URL)
		})
	}
}

// checkJWT verifies an ES256 JWT's signature and its iss, sub and aud.
func checkJWT(t *testing.T, jwt string, pub *ecdsa.PublicKey, client, aud string) {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("client_assertion %q is not a JWT", jwt)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("client_assertion: the signature does not verify")
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	_ = json.Unmarshal(payload, &claims)
	if claims["iss"] != client || claims["sub"] != client || claims["aud"] != aud {
		t.Errorf("claims = %v, want iss and sub %q, aud %q", claims, client, aud)
	}
}

func TestTransport(t *testing.T) {
	f := newFake(t, std())
	c := New("srv", f.url(), nil, &Options{Interactive: true, Open: follow})
	hc := &http.Client{Transport: c.Transport(nil)}
	resp, err := hc.Get(f.url())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status = %d after signing in, want 200", resp.StatusCode)
	}
}

// TestAuthorizationsInARow: MaxAuthorize counts the tokens obtained
// before the server takes one. A token revoked after it served, again
// and again, gets a new one each time. A sign-in that needs a person
// obtains none, so it says so however often it is asked.
func TestAuthorizationsInARow(t *testing.T) {
	f := newFake(t, std())
	c := New("srv", f.url(), nil, &Options{Interactive: true, Open: follow, MaxAuthorize: 2})
	hc := &http.Client{Transport: c.Transport(nil)}
	for i := range 5 {
		resp, err := hc.Get(f.url())
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: status %d, want 200", i, resp.StatusCode)
		}
		f.mu.Lock()
		if f.revoked == nil {
			f.revoked = map[string]bool{}
		}
		f.revoked["token-"+strconv.Itoa(f.issued)] = true // the server stops taking it
		f.mu.Unlock()
	}
	if f.issued != 5 {
		t.Errorf("tokens issued = %d, want 5 (one a request)", f.issued)
	}

	none := New("srv", f.url(), nil, &Options{MaxAuthorize: 2})
	for i := range 4 {
		req, resp := unauthorized(`Bearer resource_metadata="` + f.srv.URL + `/.well-known/oauth-protected-resource/mcp"`)
		if err := none.Authorize(t.Context(), req, resp); !errors.Is(err, ErrLoginRequired) {
			t.Fatalf("Authorize %d without a browser = %v, want ErrLoginRequired", i, err)
		}
	}
}

// TestTransportKeepsToken: a redirect to another origin (another port of
// the same host) gets no token.
func TestTransportKeepsToken(t *testing.T) {
	got := make(chan string, 4)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Authorization")
	}))
	t.Cleanup(other.Close)
	ts := httptest.NewServer(http.RedirectHandler(other.URL+"/x", http.StatusTemporaryRedirect))
	t.Cleanup(ts.Close)
	store := NewStore(t.TempDir())
	if err := store.Save(&Record{Resource: ts.URL, ClientID: "c", Token: &Token{AccessToken: "tok"}}); err != nil {
		t.Fatal(err)
	}
	c := New("srv", ts.URL, nil, &Options{Store: store})
	resp, err := (&http.Client{Transport: c.Transport(nil)}).Get(ts.URL + "/manifest")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if a := <-got; a != "" {
		t.Errorf("the other origin saw Authorization %q, want none", a)
	}
}

// TestStoredForAnotherClient: a token stored for another client_id (a
// dynamic registration, before client_id was configured) is not sent.
func TestStoredForAnotherClient(t *testing.T) {
	store := NewStore(t.TempDir())
	const res = "https://mcp.example/mcp"
	if err := store.Save(&Record{Resource: res, ClientID: "dcr-1", Registered: true, Token: &Token{AccessToken: "old"}}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cfg  *Config
		want bool
	}{{nil, true}, {&Config{ClientID: "dcr-1"}, true}, {&Config{ClientID: "pre"}, false}} {
		ts, err := New("srv", res, tt.cfg, &Options{Store: store}).TokenSource(t.Context())
		if err != nil || (ts != nil) != tt.want {
			t.Errorf("config %+v: TokenSource = %v, %v; want a source: %v", tt.cfg, ts, err, tt.want)
		}
	}
}
