//go:build !jsonlib

package tool

// Without the tag jsonlib (every ordinary build), package tool's per-call
// JSON takes its hand-written paths. See jsonlib_on.go.

// jsonLib reports that this build uses github.com/go-json-experiment/json.
const jsonLib = false

func fastRequest(data []byte) (*Request, bool)       { return decodePlain(data) }
func fastSchema(data []byte) (*SchemaResponse, bool) { return decodePlainSchema(data) }
func fastTagged(line []byte) (taggedFields, bool)    { return plainTagged(line) }
func fastOutcome(data []byte) (outcomeFields, bool)  { return plainOutcome(data) }
func fastMarshalRequest(r *Request) ([]byte, bool) {
	return appendRequest(make([]byte, 0, 256+len(r.Context.Access)), r)
}
func outcomeJSON(o Outcome) ([]byte, error) { return appendOutcome(o), nil }
