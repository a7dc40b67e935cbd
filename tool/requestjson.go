package tool

import (
	"bytes"

	"github.com/toolhost/toolhost/internal/wirejson"
)

// appendRequest appends r as [Marshal] writes it through encoding/json and
// the MarshalJSON methods of [Context] and [Call], without reflection: a
// host writes one request per call, and a long-lived process's calls are
// a fraction of a millisecond. The access policy is compacted, which also
// checks it is JSON. A compact policy is appended as it is (appendCompact).
func appendRequest(b []byte, r *Request) ([]byte, error) {
	var err error
	b = append(b, '{')
	if r.ID != "" {
		b = append(b, `"id":`...)
		b = wirejson.AppendString(b, r.ID)
		b = append(b, ',')
	}
	b = append(b, `"protocol":`...)
	b = wirejson.AppendString(b, r.Protocol)
	b = append(b, `,"context":{"action":`...)
	b = wirejson.AppendString(b, string(r.Context.Action))
	b = append(b, `,"root":`...)
	b = wirejson.AppendString(b, r.Context.Root)
	b = append(b, `,"workspace_id":`...)
	b = wirejson.AppendString(b, r.Context.WorkspaceID)
	b = append(b, `,"conversation_id":`...)
	b = wirejson.AppendString(b, r.Context.ConversationID)
	b = append(b, `,"access":`...)
	if a := r.Context.Access; len(bytes.TrimSpace(a)) == 0 {
		b = append(b, "null"...)
	} else if b, err = appendCompact(b, a); err != nil {
		return nil, err
	}
	b = append(b, '}')
	if c := r.Tool; c != nil {
		b = append(b, `,"tool":{"name":`...)
		b = wirejson.AppendString(b, c.Name)
		for _, f := range []struct {
			key string
			m   map[string]any
		}{{`,"arguments":`, c.Arguments}, {`,"answers":`, c.Answers}, {`,"options":`, c.Options}} {
			b = append(b, f.key...)
			if f.m == nil {
				b = append(b, "{}"...)
			} else if b, err = wirejson.AppendValue(b, f.m); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}
