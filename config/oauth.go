package config

import (
	"net/url"
	"slices"
)

// OAuth is the oauth table of an HTTP server ([mcp_servers.NAME.oauth]) or
// a remote ([remotes.NAME.oauth]): how toolhost signs in to it when it
// asks for OAuth 2.1 authorization. Without the table toolhost still signs
// in to a server that asks, registering itself dynamically. Secrets are
// never in the file: ClientSecretEnv names the variable holding the client
// secret, PrivateKeyFile an owner-only PEM file.
type OAuth struct {
	ClientID          string   // a pre-registered client
	ClientSecretEnv   string   // the environment variable holding its secret
	ClientMetadataURL string   // https URL of toolhost's Client ID Metadata Document
	Scopes            []string // the scopes asked for; nil: what the server says
	Grant             string   // "authorization_code" (default) or "client_credentials"
	AuthMethod        string   // token endpoint auth method; "": chosen
	PrivateKeyFile    string   // PEM key for private_key_jwt

	Pos map[string]Position // where each key was set
}

var (
	oauthKeys   = []string{"client_id", "client_secret_env", "client_metadata_url", "scopes", "grant", "token_endpoint_auth_method", "private_key_file"}
	oauthGrants = []string{"authorization_code", "client_credentials"}
	oauthAuths  = []string{"client_secret_basic", "client_secret_post", "none", "private_key_jwt"}
)

// oauth decodes an oauth table.
func (d *decoder) oauth(path []string, v any) *OAuth {
	t, ok := d.table(path, v)
	if !ok {
		return nil
	}
	o := &OAuth{Pos: map[string]Position{}}
	for _, k := range sortedKeys(t) {
		p := with(path, k)
		v := t[k]
		switch k {
		case "client_id":
			o.ClientID, _ = d.str(p, v)
		case "client_secret_env":
			o.ClientSecretEnv = d.tokenEnv(p, v)
		case "client_metadata_url":
			s, _ := d.str(p, v)
			if u, err := url.Parse(s); s != "" && (err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/") {
				d.fail(p, ErrInvalid, `%s: %q is not an https URL with a path; write the URL of toolhost's client metadata document, e.g. "https://example.com/toolhost.json"`, dotted(p), s)
				continue
			}
			o.ClientMetadataURL = s
		case "scopes":
			o.Scopes = d.strings(p, v)
			if o.Scopes == nil {
				o.Scopes = []string{}
			}
		case "grant":
			s, _ := d.str(p, v)
			if !slices.Contains(oauthGrants, s) {
				d.fail(p, ErrInvalid, `%s: %q is not a grant toolhost runs; write "authorization_code" (a person signs in) or "client_credentials" (a machine)`, dotted(p), s)
				continue
			}
			o.Grant = s
		case "token_endpoint_auth_method":
			s, _ := d.str(p, v)
			if !slices.Contains(oauthAuths, s) {
				d.fail(p, ErrInvalid, `%s: %q is not a method toolhost speaks; write one of "client_secret_basic", "client_secret_post", "none", "private_key_jwt"`, dotted(p), s)
				continue
			}
			o.AuthMethod = s
		case "private_key_file":
			o.PrivateKeyFile, _ = d.str(p, v)
		default:
			d.unknown(p, oauthKeys)
			continue
		}
		o.Pos[k] = d.pos(p)
	}
	switch {
	case o.Grant == "client_credentials" && o.ClientID == "":
		d.fail(with(path, "grant"), ErrInvalid, `%s: the client credentials grant needs client_id (and client_secret_env or private_key_file)`, dotted(path))
	case o.ClientSecretEnv != "" && o.ClientID == "":
		d.fail(with(path, "client_secret_env"), ErrInvalid, `%s: client_secret_env without client_id; add the client_id the secret belongs to`, dotted(path))
	case o.AuthMethod == "private_key_jwt" && o.PrivateKeyFile == "":
		d.fail(with(path, "token_endpoint_auth_method"), ErrInvalid, `%s: private_key_jwt needs private_key_file, the PEM key toolhost signs with`, dotted(path))
	}
	return o
}

// oauthConflict refuses an oauth table beside bearer_token_env: the
// server gets either a fixed token or the one toolhost signs in for.
func oauthConflict(key, tokenEnv string, o *OAuth, pos map[string]Position) *Error {
	if o == nil || tokenEnv == "" {
		return nil
	}
	return newError(pos["oauth"], key+".oauth", ErrInvalid,
		"%s: oauth and bearer_token_env (%s) are both set; keep bearer_token_env for a fixed token, or oauth to sign in", key, pos["bearer_token_env"])
}
