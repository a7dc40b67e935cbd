package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clientScenarios are the suite's client scenarios toolhost runs as the
// client, each with the command line the suite starts (it appends the
// server's URL): list or call through client mode (--mcp URL), or a
// helper (see [helper]) where the scenario hands the client its
// credentials.
var clientScenarios = []struct {
	name string
	args []string // after the toolhost binary, before the URL
	via  string   // "" runs toolhost; "context-env" or "configured" runs the helper of that name
}{
	{"initialize", []string{"list", "--mcp"}, ""},
	{"tools_call", []string{"call", "add_numbers", "a=1", "b=2", "--mcp"}, ""},
	{"elicitation-sep1034-client-defaults", []string{"call", "test_client_elicitation_defaults", "--mcp"}, ""},
	{"sse-retry", []string{"call", "test_reconnection", "--mcp"}, ""},
	{"auth/metadata-default", []string{"list", "--mcp"}, ""},
	{"auth/metadata-var1", []string{"list", "--mcp"}, ""},
	{"auth/metadata-var2", []string{"list", "--mcp"}, ""},
	{"auth/metadata-var3", []string{"list", "--mcp"}, ""},
	{"auth/basic-cimd", []string{"list", "--mcp"}, "context-env"},
	{"auth/scope-from-www-authenticate", []string{"list", "--mcp"}, ""},
	{"auth/scope-from-scopes-supported", []string{"list", "--mcp"}, ""},
	{"auth/scope-omitted-when-undefined", []string{"list", "--mcp"}, ""},
	{"auth/scope-step-up", []string{"call", "test-tool", "--mcp"}, ""},
	{"auth/scope-retry-limit", []string{"call", "test-tool", "--mcp"}, ""},
	{"auth/token-endpoint-auth-basic", []string{"list", "--mcp"}, ""},
	{"auth/token-endpoint-auth-post", []string{"list", "--mcp"}, ""},
	{"auth/token-endpoint-auth-none", []string{"list", "--mcp"}, ""},
	{"auth/pre-registration", []string{"list", "--mcp"}, "context-env"},
	{"auth/2025-03-26-oauth-metadata-backcompat", []string{"list", "--mcp"}, ""},
	{"auth/2025-03-26-oauth-endpoint-fallback", []string{"list", "--mcp"}, ""},
	{"auth/resource-mismatch", []string{"list", "--mcp"}, ""},
	{"auth/offline-access-scope", []string{"list", "--mcp"}, ""},
	{"auth/offline-access-not-supported", []string{"list", "--mcp"}, ""},
	{"auth/client-credentials-basic", []string{"list"}, "configured"},
	{"auth/client-credentials-jwt", []string{"list"}, "configured"},
}

// cimdURL is the client_id the suite's basic-cimd scenario expects: the
// URL of a client metadata document it pretends to have fetched.
const cimdURL = "https://conformance-test.local/client-metadata.json"

// helperVar makes the test binary play a helper: set in the suite's
// environment, it is inherited by what the suite starts.
const helperVar = "TOOLHOST_CONFORMANCE_HELPER"

func TestClientConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("builds toolhost and runs node: skipped under -short")
	}
	root, node := suite(t)
	dir := build(t, root, "./cmd/toolhost")
	toolhost := filepath.Join(dir, "bin", "toolhost")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range clientScenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel() // each scenario starts its own servers
			home := t.TempDir()
			command := append([]string{toolhost}, sc.args...)
			if sc.via != "" {
				command = append([]string{self, sc.via}, command...)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node,
				"--import", filepath.Join(root, "conformance", "node20.mjs"),
				filepath.Join(root, suitePath), "client", "--command", strings.Join(command, " "), "--scenario", sc.name)
			cmd.Dir = t.TempDir() // where the suite may write results/
			cmd.Env = append(os.Environ(),
				helperVar+"=1",
				"BROWSER="+self+" browse", // follows the authorization URL's redirects to toolhost's loopback callback
				"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_STATE_HOME="+filepath.Join(home, "state"),
				"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
			out, err := cmd.CombinedOutput()
			report := ansi.ReplaceAllString(string(out), "")
			var exit *exec.ExitError
			switch {
			case err == nil:
			case errors.As(err, &exit) && exit.ExitCode() == 1:
				t.Errorf("scenario %s failed; the suite says:\n%s", sc.name, report)
			default:
				t.Fatalf("running the suite: %v\n%s", err, report)
			}
		})
	}
}

// helper plays one helper of the client scenarios, with args after its
// name, and returns the exit status:
//
//   - browse URL: the browser. It follows the authorization URL's
//     redirects, which end at toolhost's loopback callback.
//   - context-env TOOLHOST ARG… URL: runs toolhost with the credentials of
//     the scenario's context (MCP_CONFORMANCE_CONTEXT) in client mode's
//     variables, and the client metadata document's URL.
//   - configured TOOLHOST ARG… URL: writes a configuration whose one
//     server is at URL with an oauth table for the client credentials
//     grant made of the context, and runs toolhost with it.
func helper(name string, args []string) int {
	fail := func(err error) int { fmt.Fprintf(os.Stderr, "helper %s: %v\n", name, err); return 1 }
	if name == "browse" {
		if len(args) != 1 {
			return fail(errors.New("want one URL"))
		}
		resp, err := http.Get(args[0])
		if err != nil {
			return fail(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return 0
	}
	if len(args) < 2 {
		return fail(errors.New("want TOOLHOST ARG… URL"))
	}
	var sc struct {
		ClientID      string `json:"client_id"`
		ClientSecret  string `json:"client_secret"`
		PrivateKeyPEM string `json:"private_key_pem"`
	}
	if c := os.Getenv("MCP_CONFORMANCE_CONTEXT"); c != "" {
		if err := json.Unmarshal([]byte(c), &sc); err != nil {
			return fail(err)
		}
	}
	url := args[len(args)-1]
	argv := args[:len(args)-1]
	env := os.Environ()
	switch name {
	case "context-env":
		env = append(env, "TOOLHOST_OAUTH_CLIENT_METADATA_URL="+cimdURL)
		if sc.ClientID != "" {
			env = append(env, "TOOLHOST_OAUTH_CLIENT_ID="+sc.ClientID, "TOOLHOST_OAUTH_CLIENT_SECRET="+sc.ClientSecret)
		}
		argv = append(argv, url)
	case "configured":
		dir, err := os.MkdirTemp("", "toolhost-conformance")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(dir)
		conf := fmt.Sprintf("[mcp_servers.cc]\nurl = %q\n\n[mcp_servers.cc.oauth]\ngrant = \"client_credentials\"\nclient_id = %q\n", url, sc.ClientID)
		if sc.ClientSecret != "" {
			conf += "client_secret_env = \"CONFORMANCE_CLIENT_SECRET\"\n"
			env = append(env, "CONFORMANCE_CLIENT_SECRET="+sc.ClientSecret)
		}
		if sc.PrivateKeyPEM != "" {
			key := filepath.Join(dir, "key.pem")
			if err := os.WriteFile(key, []byte(sc.PrivateKeyPEM), 0o600); err != nil {
				return fail(err)
			}
			conf += fmt.Sprintf("private_key_file = %q\n", key)
		}
		conf += "\n[toolsets.cc]\nsource = \"mcp.cc\"\n"
		file := filepath.Join(dir, "toolhost.toml")
		if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
			return fail(err)
		}
		argv = append([]string{argv[0], "--config", file}, argv[1:]...)
	default:
		return fail(errors.New("no such helper"))
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		return fail(err)
	}
	return 0
}
