// Package binary is the local-binary source of a catalog: the tools a
// configuration's entries make of tool binaries. It asks each binary for
// its schema. The requests are grouped by invocation and bounded. The
// answers are cached for the session, and on disk by the binary's stat
// key. It merges the user's overrides on top by JP's rules, with
// dario.cat/mergo. It lints the result, and runs calls. A call is one
// process through package invoke, or goes to a pool of long-lived
// processes for a protocol v2 binary that declares long_lived. A
// resolution without errors is persisted whole (package
// internal/source/binary/persist), so that the next start reads one file, and a
// one-shot call only its header and one tool's detail.
//
// A [Source] is a catalog's base source ([catalog.Catalog.AddBase]): it
// implements [catalog.Source] and [catalog.Indexer] (a persisted tool's
// detail is decoded on first use), and checks before a call whether a
// binary was rebuilt ([catalog.Refresher]). Package resolver wires it
// (resolver.New, resolver.Open) and documents what embedders see. The
// rules of each part are in its file (resolve.go, merge.go, pool.go,
// store.go, access.go for the sandbox policy).
//
// # Wiring
//
// A catalog of binaries is made in this order (resolver/new.go):
//
//	b := binary.New(opts)                  // no configuration yet
//	b.Configure(cfg)                       // New: a configuration read
//	// or, Open: b.SetLoad(files, load), then either
//	//   p, ok := b.Persisted(); b.Install(p)   // served without reading the configuration
//	//   or cfg, err := b.ReadConfig(persist)   // read it now
//	err := b.Start(ctx)                    // the persisted resolution, else resolve (not after Install)
//	err = cat.AddBase(ctx, b)              // the catalog lists it (Index) and serves it
//
// The other sources keep their own warm-start snapshots in the slot
// [Source.WarmSlot] names, valid under the same key. [Source.Close],
// which the catalog calls, ends the long-lived processes.
package binary
