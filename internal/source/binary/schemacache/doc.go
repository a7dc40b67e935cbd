// Package schemacache is the local-binary source's persistent schema
// cache: the key of what a schema request would run ([StatKey]: the
// binary's and its script's path, size, times and inode, the command, the
// working directory and the environment; none for launchers and shell
// commands), the files that hold the answers under CacheDir/schemas
// ([Disk]: hostile input, written atomically, in a directory owned by the
// current user), the cache directory itself ([DefaultDir], [Clear]), and
// the in-memory cache of one catalog's life ([Session]: each binary asked
// once, concurrent askers sharing one request).
//
// It knows nothing of the catalog: resolver, which still holds the rest
// of the local-binary source, asks it for keys and answers.
package schemacache
