// Package persist is the persisted resolution of the local-binary source:
// the header of the file ([Resolution] and the types it holds), its binary
// codec ([Encode], [Decode], [DecodeOne]: hostile input, checked by CRC
// and bounds, fuzzed) and the reading of the cache's files as hostile
// input ([ReadFile], [OpenFile]).
//
// It knows nothing of when a resolution is stored or used, nor of the
// catalog that serves it: that is resolver's (persist.go, persistload.go),
// to move beside the rest of the binary source. It imports only
// [catalog] (for the stored [catalog.Identity]).
package persist
