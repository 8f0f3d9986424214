// http.js - raw HTTP clients for tests/suites/serve.sh, on 127.0.0.1 only,
// each bounded in time and stopping by itself.
//
//   node http.js raw PORT FILE       send FILE's bytes as they are; print the
//                                    first answer's status line, then its body;
//                                    exit 1 when no answer comes within 5 s
//   node http.js slow PORT N SECS    slowloris: N connections, each sending a
//                                    request head one byte every 200 ms and
//                                    opened again 300 ms after it is closed,
//                                    for SECS seconds; prints one JSON line:
//                                    connections closed, answered 408, answered
//                                    503, closed unanswered, longest life in ms
//   node http.js hold PORT N SECS    N connections that send nothing, held
//                                    until closed or SECS; prints "ready" once
//                                    all are open and each status line it gets
"use strict";
const net = require("net");
const fs = require("fs");
const [mode, portArg, a, b] = process.argv.slice(2);
const port = Number(portArg);

function status(data) {
	return data.toString("latin1").split("\r\n")[0];
}

if (mode === "raw") {
	const req = fs.readFileSync(a);
	const chunks = [];
	const s = net.connect(port, "127.0.0.1", () => s.write(req));
	const t = setTimeout(() => { console.log("no answer"); process.exit(1); }, 5000);
	// The first answer only: up to its Content-Length, or to the close.
	const done = () => {
		clearTimeout(t);
		const all = Buffer.concat(chunks);
		const cut = all.indexOf("\r\n\r\n");
		if (!all.length) { console.log("no answer"); process.exit(1); }
		const m = /\r\ncontent-length: *(\d+)/i.exec(all.subarray(0, cut < 0 ? 0 : cut).toString("latin1"));
		console.log(status(all));
		const body = cut < 0 ? Buffer.alloc(0) : all.subarray(cut + 4);
		process.stdout.write(m ? body.subarray(0, Number(m[1])) : body);
		process.exit(0);
	};
	s.on("data", (d) => {
		chunks.push(d);
		const all = Buffer.concat(chunks), cut = all.indexOf("\r\n\r\n");
		const m = cut < 0 ? null : /\r\ncontent-length: *(\d+)/i.exec(all.subarray(0, cut).toString("latin1"));
		if (m && all.length - cut - 4 >= Number(m[1])) done();
	});
	s.on("error", () => {});
	s.on("close", done);
} else if (mode === "slow") {
	const n = Number(a), secs = Number(b);
	const head = "GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "a".repeat(4000) + "\r\n\r\n";
	const end = Date.now() + secs * 1000;
	let ending = false;
	const r = { closed: 0, answered408: 0, answered503: 0, unanswered: 0, longest_ms: 0 };
	const open = () => {
		if (Date.now() >= end) return;
		const t0 = Date.now();
		let i = 0, data = "";
		const s = net.connect(port, "127.0.0.1");
		const iv = setInterval(() => { if (i < head.length) s.write(head[i++]); }, 200);
		s.on("data", (d) => { data += d; });
		s.on("error", () => {});
		s.on("close", () => {
			clearInterval(iv);
			if (ending) return;
			r.closed++;
			if (data.startsWith("HTTP/1.1 408")) r.answered408++;
			else if (data.startsWith("HTTP/1.1 503")) r.answered503++;
			else r.unanswered++;
			r.longest_ms = Math.max(r.longest_ms, Date.now() - t0);
			setTimeout(open, 300);
		});
		setTimeout(() => { ending = true; s.destroy(); }, Math.max(0, end - Date.now()) + 100);
	};
	for (let k = 0; k < n; k++) open();
	setTimeout(() => { console.log(JSON.stringify(r)); process.exit(0); }, secs * 1000 + 300);
} else if (mode === "hold") {
	const n = Number(a), secs = Number(b);
	let open = 0, left = n;
	for (let k = 0; k < n; k++) {
		const s = net.connect(port, "127.0.0.1", () => { if (++open === n) console.log("ready"); });
		s.on("data", (d) => console.log(status(d)));
		s.on("error", () => {});
		s.on("close", () => { if (--left === 0) process.exit(0); });
	}
	setTimeout(() => process.exit(1), secs * 1000);
} else {
	console.error("usage: node http.js raw|slow|hold PORT ...");
	process.exit(64);
}
