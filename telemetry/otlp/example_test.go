package otlp_test

import (
	"context"
	"fmt"
	"os"

	"github.com/toolhost/toolhost/telemetry/otlp"
)

// Setup exports traces only when the OTEL_EXPORTER_OTLP_* variables ask
// for it. A failure is a warning: the host runs on without telemetry.
func ExampleSetup() {
	ctx := context.Background()
	shutdown, err := otlp.Setup(ctx, &otlp.Options{Errors: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "toolhost: warning:", err) // run without telemetry
	}
	defer shutdown(context.Background()) // flushes what is buffered
}
