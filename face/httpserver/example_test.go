package httpserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/toolhost/toolhost/catalog"
	"github.com/toolhost/toolhost/face/httpserver"
)

// A host program serves its own tools' discovery endpoints.
func ExampleNewHandler() {
	tools := []*catalog.Tool{{
		Definition: catalog.Definition{
			Name:        "greet",
			Summary:     "Say hello.",
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		},
		Enabled: true,
	}}
	srv := httptest.NewServer(httpserver.NewHandler(httpserver.Static(httpserver.Snapshot{Tools: tools}), nil))
	defer srv.Close()

	for _, path := range []string{"/tools", "/tools/greet", "/tools/nope"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %s", resp.StatusCode, body)
	}
	// Output:
	// 200 [{"name":"greet","description":"Say hello."}]
	// 200 {"name":"greet","description":"Say hello.","inputSchema":{"properties":{"name":{"type":"string"}},"type":"object"}}
	// 404 {"error":"unknown tool \"nope\""}
}

func ExampleIsLoopback() {
	for _, addr := range []string{"", ":8080", "localhost:8080", "0.0.0.0:8080"} {
		fmt.Printf("%q listens on %s, loopback %v\n", addr, httpserver.ListenAddr(addr), httpserver.IsLoopback(addr))
	}
	// Output:
	// "" listens on 127.0.0.1:7477, loopback true
	// ":8080" listens on 127.0.0.1:8080, loopback true
	// "localhost:8080" listens on localhost:8080, loopback true
	// "0.0.0.0:8080" listens on 0.0.0.0:8080, loopback false
}
