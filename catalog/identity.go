package catalog

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
)

// protocolVersion is the identity's protocol_version.
const protocolVersion = "1.0"

// Identity identifies the set of tools a catalog serves (contract):
//
//	{"server_id":"<uuid>","tools_count":N,"protocol_version":"1.0"}
//
// ServerID is a UUID derived from the sorted definitions: names,
// descriptions, input schemas, annotations. The same tools give the same
// id, in any process. Any change gives a new one.
type Identity struct {
	ServerID        string `json:"server_id"`        // a version 5 UUID
	ToolsCount      int    `json:"tools_count"`      // enabled tools
	ProtocolVersion string `json:"protocol_version"` // "1.0"
}

// identityNamespace is the UUID namespace of server ids (a fixed random UUID).
var identityNamespace = [16]byte{0x6b, 0x1e, 0x3f, 0x52, 0x8c, 0x0d, 0x4e, 0x7a, 0x9f, 0x31, 0x2a, 0x55, 0xc4, 0x07, 0xe1, 0x9b}

// IdentityOf derives the identity of a set of definitions, in any order.
// It is a name-based (version 5) UUID over everything tools/list serves of
// them: names, descriptions, input schemas and annotations, sorted by
// name. So any change a client could see gives a new id, and a new ETag.
// Every face that serves a tool list computes its id with it. So the same
// tools give the same id everywhere. It panics if an input schema or the
// annotations cannot be marshalled to JSON, which [Catalog.Register] rules
// out for catalogs.
func IdentityOf(defs []Definition) Identity {
	type item struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
		Annotations map[string]any `json:"annotations,omitempty"`
		// Protocol v2's fields. Absent for v1 tools, whose ids are unchanged.
		Title        string         `json:"title,omitempty"`
		Icons        []Icon         `json:"icons,omitempty"`
		OutputSchema map[string]any `json:"outputSchema,omitempty"`

		// Absent for tools without: their ids are unchanged.
		Meta json.RawMessage `json:"_meta,omitempty"`
	}
	items := make([]item, len(defs))
	for i, d := range defs {
		items[i] = item{d.Name, d.Summary, d.InputSchema, d.Annotations, d.Title, d.Icons, d.OutputSchema, d.Meta}
	}
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.Name, b.Name) })
	data, err := json.Marshal(items) // map keys are written sorted: equal schemas hash equally
	if err != nil {
		panic("catalog: definitions are not JSON: " + err.Error())
	}
	return Identity{ServerID: uuid5(identityNamespace, data), ToolsCount: len(defs), ProtocolVersion: protocolVersion}
}

// uuid5 returns the RFC 9562 version 5 UUID of name in namespace ns.
func uuid5(ns [16]byte, name []byte) string {
	h := sha1.New()
	h.Write(ns[:])
	h.Write(name)
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // variant RFC 9562
	var buf [36]byte
	hex.Encode(buf[0:8], u[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], u[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], u[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], u[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], u[10:])
	return string(buf[:])
}

// UUID returns the version 5 UUID of name in the namespace of server ids:
// the same name gives the same UUID in any process (the binaries derive
// their default workspace and conversation ids with it).
func UUID(name []byte) string { return uuid5(identityNamespace, name) }
