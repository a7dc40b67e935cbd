package oauth

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// Grants a [Config] may name.
const (
	GrantAuthorizationCode = "authorization_code" // a person signs in through a browser (the default)
	GrantClientCredentials = "client_credentials" // a machine uses its own client_id and secret
)

// Token endpoint authentication methods (RFC 7591 token_endpoint_auth_method).
const (
	AuthBasic = "client_secret_basic" // client_id and secret in an Authorization: Basic header
	AuthPost  = "client_secret_post"  // client_id and secret in the form body
	AuthNone  = "none"                // a public client: client_id in the body, no secret
	AuthJWT   = "private_key_jwt"     // a JWT signed with the client's key (client credentials)
)

// Defaults applied to the zero fields of [Options].
const (
	DefaultLoginTimeout = 5 * time.Minute // waiting for the browser's redirect
	DefaultMaxAuthorize = 3               // authorizations in a row one Client runs before it gives up
	maxDocument         = 1 << 20         // bytes read of any document an outside server sends
	expiryMargin        = 30 * time.Second
)

// Config is how one server's client identifies itself and what it asks
// for. It is plain data, decoded from the oauth table of a server or a
// remote. The zero value signs in a person. It registers toolhost with the
// authorization server. It uses a Client ID Metadata Document when
// ClientMetadataURL is set and the server takes one. Else it uses dynamic
// registration.
type Config struct {
	// ClientID and ClientSecret are a pre-registered client. The secret is
	// the value itself. The caller reads it from the environment. ""
	// makes a public client.
	ClientID     string
	ClientSecret string

	// ClientMetadataURL is the https URL of a Client ID Metadata Document
	// describing toolhost. It is used as the client_id when the
	// authorization server advertises client_id_metadata_document_supported.
	ClientMetadataURL string

	// Scopes, when set, are the scopes asked for. When nil, they come from
	// the server's WWW-Authenticate challenge. Else they come from its
	// protected resource metadata (scopes_supported). Else none are asked for.
	Scopes []string

	// Grant is GrantAuthorizationCode ("" too) or GrantClientCredentials.
	Grant string

	// AuthMethod forces a token endpoint authentication method: AuthBasic,
	// AuthPost, AuthNone or AuthJWT. "" picks one from the registration and
	// the authorization server's metadata.
	AuthMethod string

	// PrivateKey is the PEM of the client's private key, for AuthJWT. It is
	// PKCS #8, ECDSA P-256, signing ES256.
	PrivateKey string
}

// Options are the host's side of a [Client]: nil means all defaults.
type Options struct {
	// Store keeps registrations and tokens across runs, nil keeps them in
	// memory only.
	Store *Store

	// Interactive lets the client sign a person in. It opens the
	// authorization URL in a browser and waits for the redirect. Without it a
	// server that needs a sign-in fails with [ErrLoginRequired].
	Interactive bool

	// Browser is the command that opens the authorization URL ("" reads
	// $BROWSER). Open, when set, opens it instead (tests). Out receives the
	// URL and what to do with it, nil discards.
	Browser string
	Open    func(url string) error
	Out     io.Writer

	// HTTPClient makes every request to the servers. nil means a client that
	// follows no redirect across origins with credentials.
	HTTPClient *http.Client

	// LoginTimeout bounds the wait for the browser's redirect.
	// MaxAuthorize caps the authorizations one Client runs in a row,
	// step-up included: the tokens it obtains before the server takes
	// one. So a server that never accepts a token cannot loop.
	LoginTimeout time.Duration
	MaxAuthorize int

	// OnSecret is told every token and client secret the client obtains
	// or loads. So no log or audit line shows one.
	OnSecret func(string)
}

// Errors the client detects. Each reaches the caller wrapped in an *[Error].
var (
	// ErrLoginRequired: the server needs a person to sign in. The client may
	// not open a browser.
	ErrLoginRequired = errors.New("the server needs authorization")
	// ErrResourceMismatch: the protected resource metadata names another
	// resource than the server's URL.
	ErrResourceMismatch = errors.New("the protected resource metadata is for another resource")
	// ErrNoPKCE: the authorization server publishes metadata without S256
	// in code_challenge_methods_supported.
	ErrNoPKCE = errors.New("the authorization server does not support PKCE with S256")
	// ErrNoRegistration: no way to obtain a client_id at that server.
	ErrNoRegistration = errors.New("no client registration the authorization server accepts")
	// ErrTooManyAuthorizations: the server keeps refusing the tokens it was given.
	ErrTooManyAuthorizations = errors.New("the server keeps refusing the token")
	// ErrState: the redirect carried another state than the one sent.
	ErrState = errors.New("the authorization response's state does not match the request's")
	// ErrBadDocument: a metadata document or token response is malformed.
	ErrBadDocument = errors.New("malformed document")
	// ErrDenied: the authorization server refused (an error response).
	ErrDenied = errors.New("the authorization server refused")
)

// Error is a failure to authorize toolhost at one server. It holds the
// server's name, the step and the cause. Where the user can do something,
// it holds the fix.
type Error struct {
	Server string // the server's name
	Op     string // "discover", "register", "authorize", "token", "refresh", "store"
	Err    error
	Fix    string
}

func (e *Error) Error() string {
	return "oauth: server " + quote(e.Server) + ": " + e.Op + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func quote(s string) string { return `"` + s + `"` }
