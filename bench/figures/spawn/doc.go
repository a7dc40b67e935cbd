// Package spawn holds in-process benchmarks of the spawn path behind the
// figures of docs/performance.md (P1 cold resolution, one-shot calls), for profiles
// and host CPU time. It is a test binary of its own because it makes
// itself a subreaper, as the toolhost command does (so that Run's cleanup
// costs what it costs there), which bench/figures, whose baselines start
// processes of their own, must not be.
//
//	go test -run='^$' -bench=. -benchtime=40x ./bench/figures/spawn
//	go test -run='^$' -bench=ColdResolutionInProcess -benchtime=80x -cpuprofile=cpu.out ./bench/figures/spawn
//	go tool pprof -top -cum -focus='cli.Run|askAll' cpu.out
//
// Metrics: *-ms are wall times per iteration, *-cpu-ms the CPU time of
// this process (every thread: the host's share), *-kids-cpu-ms that of the
// children it waited for.
package spawn
