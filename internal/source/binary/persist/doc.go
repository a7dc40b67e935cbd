// Package persist is the persisted resolution of the local-binary source.
// It holds the header of the file: [Resolution] and the types it holds. It
// holds the file's binary codec: [Encode], [Decode] and [DecodeOne]. The
// codec reads hostile input, checked by CRC and bounds, and is fuzzed. It
// reads the cache's files as hostile input ([ReadFile], [OpenFile]).
//
// It knows nothing of when a resolution is stored or used, nor of the
// catalog that serves it: that is resolver's (persist.go, persistload.go),
// to move beside the rest of the binary source. It imports only
// [catalog] (for the stored [catalog.Identity]).
package persist
