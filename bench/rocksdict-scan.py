"""
Figure 8d's peer: RocksDB's own iterator (rocksdict) over a subtask's files laid out under their RocksDB
names, opened read-only with the options of its OPTIONS file (Options.load_latest through Rdict's raw
mode: Flink's merge operator, StringAppendTESTOperator, from the file), every column family iterated,
every key and value touched. Prints JSON: entries and key/value bytes per column family, and the wall and
CPU time (process_time: every thread of the process) of the open and the iteration (ms), `runs` times in one process.
"""
import json
import sys
import time

from rocksdict import AccessType, Rdict


def scan(path):
    t0 = time.perf_counter()
    c0 = time.process_time()
    db = Rdict(path, access_type=AccessType.read_only())
    out = {}
    for name in Rdict.list_cf(path):
        cf = db.get_column_family(name)
        entries = key_bytes = value_bytes = 0
        it = cf.iter()
        it.seek_to_first()
        while it.valid():
            k = it.key()
            v = it.value()
            entries += 1
            key_bytes += len(k)
            value_bytes += len(v)
            it.next()
        del it
        del cf
        out[name] = [entries, key_bytes, value_bytes]
    db.close()
    return out, (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000


def main():
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    times = []
    cpu = []
    result = None
    for _ in range(runs):
        result, ms, cpu_ms = scan(path)
        times.append(ms)
        cpu.append(cpu_ms)
    print(json.dumps({"columnFamilies": result, "ms": times, "cpuMs": cpu}))


main()
