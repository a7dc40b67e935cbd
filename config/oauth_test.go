package config

import (
	"reflect"
	"testing"
)

// TestOAuth: the oauth table of a server or remote decodes into OAuth,
// and what toolhost cannot use is an error at its file:line.
func TestOAuth(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      *OAuth // of mcp_servers.s or remotes.s, without Pos
		wantErr   string
	}{
		{
			name: "every key",
			src: "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\n[mcp_servers.s.oauth]\nclient_id = \"c\"\nclient_secret_env = \"SECRET\"\n" +
				"client_metadata_url = \"https://toolhost.example/client.json\"\nscopes = [\"a\", \"b\"]\ntoken_endpoint_auth_method = \"client_secret_post\"\n",
			want: &OAuth{ClientID: "c", ClientSecretEnv: "SECRET", ClientMetadataURL: "https://toolhost.example/client.json", Scopes: []string{"a", "b"}, AuthMethod: "client_secret_post"},
		},
		{
			name: "a remote's, inline, client credentials",
			src:  "[remotes.s]\nurl = \"https://r.example\"\noauth = { grant = \"client_credentials\", client_id = \"bot\", private_key_file = \"/k.pem\" }\n",
			want: &OAuth{Grant: "client_credentials", ClientID: "bot", PrivateKeyFile: "/k.pem"},
		},
		{
			name: "empty scopes stay empty: ask for none",
			src:  "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\noauth.scopes = []\n",
			want: &OAuth{Scopes: []string{}},
		},
		{
			name:    "unknown key",
			src:     "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\n[mcp_servers.s.oauth]\nclient_secret = \"x\"\n",
			wantErr: `config.toml:4: unknown key "mcp_servers.s.oauth.client_secret" (did you mean "client_secret_env"?)`,
		},
		{
			name:    "a secret where the variable's name goes",
			src:     "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\noauth = { client_id = \"c\", client_secret_env = \"s3cr3t-value!\" }\n",
			wantErr: `config.toml:3: mcp_servers.s.oauth.client_secret_env: not an environment variable name (the value is not shown: it may be the token); write the variable's name, e.g. bearer_token_env = "GITHUB_TOKEN", and keep the token in the environment`,
		},
		{
			name:    "unknown grant",
			src:     "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\noauth = { grant = \"password\" }\n",
			wantErr: `config.toml:3: mcp_servers.s.oauth.grant: "password" is not a grant toolhost runs; write "authorization_code" (a person signs in) or "client_credentials" (a machine)`,
		},
		{
			name:    "client credentials without client_id",
			src:     "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\n[mcp_servers.s.oauth]\ngrant = \"client_credentials\"\n",
			wantErr: `config.toml:4: mcp_servers.s.oauth: the client credentials grant needs client_id (and client_secret_env or private_key_file)`,
		},
		{
			name:    "metadata document over http",
			src:     "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\noauth.client_metadata_url = \"http://toolhost.example/c.json\"\n",
			wantErr: `config.toml:3: mcp_servers.s.oauth.client_metadata_url: "http://toolhost.example/c.json" is not an https URL with a path; write the URL of toolhost's client metadata document, e.g. "https://example.com/toolhost.json"`,
		},
		{
			name:    "with bearer_token_env",
			src:     "[mcp_servers.s]\nurl = \"https://m.example/mcp\"\nbearer_token_env = \"TOK\"\noauth = { client_id = \"c\" }\n",
			wantErr: `config.toml:4: mcp_servers.s: oauth and bearer_token_env (config.toml:3) are both set; keep bearer_token_env for a fixed token, or oauth to sign in`,
		},
		{
			name:    "on a stdio server",
			src:     "[mcp_servers.s]\ncommand = \"s\"\noauth = { client_id = \"c\" }\n",
			wantErr: `config.toml:3: mcp_servers.s.oauth: not used by a stdio server (command); remove it`,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("config.toml", []byte(tt.src))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Fatalf("error mismatch\n got: %s\nwant: %s", got, tt.wantErr)
			}
			if tt.want == nil {
				return
			}
			var o *OAuth
			if s := cfg.Servers["s"]; s != nil {
				o = s.OAuth
			} else if r := cfg.Remotes["s"]; r != nil {
				o = r.OAuth
			}
			if o == nil {
				t.Fatal("no oauth table decoded")
			}
			o.Pos = nil
			if !reflect.DeepEqual(o, tt.want) {
				t.Errorf("OAuth = %+v, want %+v", o, tt.want)
			}
		})
	}
}
