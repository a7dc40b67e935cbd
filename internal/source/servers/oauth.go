package servers

import (
	"fmt"
	"os"

	"github.com/toolhost/toolhost/config"
	"github.com/toolhost/toolhost/internal/config/secret"
	"github.com/toolhost/toolhost/internal/oauth"
)

// OAuthConfig returns the OAuth client configuration of the oauth table o
// of the server or remote key (nil for none): the client secret read from
// its variable, the private key from its owner-only file.
func OAuthConfig(key string, o *config.OAuth) (*oauth.Config, error) {
	if o == nil {
		return nil, nil
	}
	c := &oauth.Config{ClientID: o.ClientID, ClientMetadataURL: o.ClientMetadataURL, Scopes: o.Scopes, Grant: o.Grant, AuthMethod: o.AuthMethod}
	if o.ClientSecretEnv != "" {
		c.ClientSecret = os.Getenv(o.ClientSecretEnv)
		if c.ClientSecret == "" {
			return nil, fmt.Errorf("%s.oauth: $%s is unset or empty: export %s=<client secret> before starting toolhost", key, o.ClientSecretEnv, o.ClientSecretEnv)
		}
	}
	if o.PrivateKeyFile != "" {
		v, err := secret.Ref{Kind: "file", Name: o.PrivateKeyFile}.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("%s.oauth.private_key_file: %w", key, err)
		}
		c.PrivateKey = v.Reveal()
	}
	return c, nil
}

// oauthOptions are the host's OAuth options for the sources of o: its
// own (by default the token store under the state directory, and no
// browser), with every secret the client obtains told to the audit log.
func oauthOptions(o *Options) *oauth.Options {
	opts := oauth.Options{Store: oauth.DefaultStore()}
	if o.OAuth != nil {
		opts = *o.OAuth
	}
	if o.Audit != nil {
		next := opts.OnSecret
		opts.OnSecret = func(s string) {
			o.Audit.AddSecret(s)
			if next != nil {
				next(s)
			}
		}
	}
	return &opts
}
