// Package schemacache is the local-binary source's persistent schema
// cache. It holds four parts:
//
//   - [StatKey], the key of what a schema request would run. It covers the
//     binary's and its script's path, size, times and inode, the command,
//     the working directory and the environment. Launchers and shell
//     commands have none.
//   - [Disk], the files that hold the answers under CacheDir/schemas. They
//     are hostile input, written atomically, in a directory owned by the
//     current user.
//   - the cache directory itself ([DefaultDir], [Clear]).
//   - [Session], the in-memory cache of one catalog's life. Each binary is
//     asked once, and concurrent askers share one request.
//
// It knows nothing of the catalog. resolver still holds the rest of the
// local-binary source. It asks schemacache for keys and answers.
package schemacache
