# bench/verify_log_gen.awk - an NCCL_DEBUG=INFO log of a multi-node
# all_reduce_perf run as large as asked, for bench/verify_stream.sh.
#
#   awk -v mb=50 -v nodes=16 [-v interleave=1] -f bench/verify_log_gen.awk > run.log
#
# The lines are NCCL's own formats (2.21: src/init.cc, src/transport/
# net_ib.cc, src/transport.cc, src/graph/paths.cc), each rank prefixed
# "host:pid:tid [dev]" as NCCL prints it, 8 ranks a node: the version, the
# bootstrap and NET/IB lines, GPUDirect RDMA per GPU and HCA, the init line
# with nNodes, every channel's connections (P2P inside a node, NET/IB with
# /GDRDMA across nodes) and per-QP lines, repeated for each communicator a
# long job creates, with the job's own progress lines between them (what
# fills a large log: a training job re-creating communicators), and an
# nccl-tests table at the end. Each rank prints its lines in a run, as one
# thread does; interleave=1 prints each channel's line of every rank in
# turn instead, as ranks racing to print do, so no two lines in a row
# share a prefix.
BEGIN {
	if (!mb) mb = 50
	if (!nodes) nodes = 16
	ranks = nodes * 8
	target = mb * 1048576
	bytes = 0
	print "$ mpirun -np " ranks " -N 8 --hostfile hosts ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1"
	print "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0"
	print "#"
	print "# Using devices"
	for (r = 0; r < ranks; r++)
		printf "#  Rank %3d Group  0 Pid %6d on gpu-node-%04d device  %d [0x%02x] NVIDIA H100 80GB HBM3\n", r, 4000 + r, int(r / 8), r % 8, 24 + (r % 8) * 16
	comm = 0
	while (bytes < target) {
		comm++
		for (r = 0; r < ranks; r++) {
			h = sprintf("gpu-node-%04d:%d:%d [%d] NCCL INFO ", int(r / 8), 4000 + r, 4100 + r, r % 8)
			if (comm == 1 && r == 0)
				emit(h "NCCL version 2.21.5+cuda12.4")
			if (comm == 1) {
				emit(h "Bootstrap : Using eth0:10.0." int(r / 8) "." (10 + r % 8) "<0>")
				emit(h "NET/Plugin: No plugin found (libnccl-net.so)")
				emit(h "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB eth0:10.0." int(r / 8) "." (10 + r % 8) "<0>")
				emit(h "Using network IB")
				emit(h "GPU Direct RDMA Enabled for GPU " sprintf("%x", 24 + (r % 8) * 16) "000 / HCA " (r % 8) " (distance 3 <= 4), read 1")
			}
			emit(h sprintf("comm 0x%x rank %d nRanks %d nNodes %d localRanks 8 localRank %d MNNVL 0", 1048576 * comm + r, r, ranks, nodes, r % 8))
			for (c = 0; c < 16 && !interleave; c++)
				channel(h, r, c)
			if (r % 8 == 7)
				emit(h sprintf("NET/IB: NCCL Dev %d IbDev %d Port 1 qpn %d mtu 5 LID %d subnet-prefix 0 FLID 0 fn 0 fp 0", r % 8, r % 8, 1000 + comm, 10 + r))
			emit(h sprintf("comm 0x%x rank %d nranks %d cudaDev %d nvmlDev %d busId %x000 commId 0x%x - Init COMPLETE", 1048576 * comm + r, r, ranks, r % 8, r % 8, 24 + (r % 8) * 16, comm))
			if (r % 8 == 0)
				emit(sprintf("[rank%d]: step %d loss %.4f lr 3.0e-04 tokens/s %d", r, comm * 100 + r, 2.5 - comm / 1000000, 410000 + r))
			if (bytes >= target)
				break
		}
		# interleave=1: every rank's lines of a channel together, as racing ranks print them
		for (c = 0; c < 16 && interleave; c++)
			for (r = 0; r < ranks; r++)
				channel(sprintf("gpu-node-%04d:%d:%d [%d] NCCL INFO ", int(r / 8), 4000 + r, 4100 + r, r % 8), r, c)
	}
	print "#"
	print "#                                                              out-of-place                       in-place          "
	print "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong"
	print "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       "
	for (s = 8; s <= 8589934592; s *= 2) {
		t = 30 + s / 180e3
		alg = s / t / 1000
		printf "%12.0f  %12.0f     float     sum      -1  %7.1f  %6.2f  %6.2f      0  %7.1f  %6.2f  %6.2f      0\n", s, s / 4, t, alg, alg * 2 * (ranks - 1) / ranks, t, alg, alg * 2 * (ranks - 1) / ranks
	}
	print "# Out of bounds values : 0 OK"
	print "# Avg bus bandwidth    : 180.512 "
	print "#"
}

function channel(h, r, c) {
	nxt = (r % 8 == 7) ? (r + 1) % ranks : r + 1
	if (r % 8 == 7)
		emit(h sprintf("Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA", c, r, r % 8, nxt, nxt % 8, c % 8))
	else
		emit(h sprintf("Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read", c, r, r % 8, nxt, nxt % 8))
}

function emit(s) {
	print s
	bytes += length(s) + 1
}
