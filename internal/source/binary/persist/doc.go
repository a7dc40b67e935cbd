// Package persist is the persisted resolution of the local-binary source.
// It holds the header of the file: [Resolution] and the types it holds. It
// holds the file's binary codec: [Encode], [Decode], [DecodeOne] and
// [DecodeLazy]. The codec reads hostile input, checked by CRC and bounds,
// and is fuzzed.
// Package internal/source/internal/cachefile opens and writes the file.
//
// It knows nothing of when a resolution is stored or used, nor of the
// catalog that serves it: that is the binary source's (store.go). It
// imports [catalog], [config] and internal/invoke, whose types it stores.
package persist
