"""Plays a `chex match` on a Ray cluster, one Ray task per pair of games.

Run it through tools/cluster-match (see tools/README.md, "Matches on a
cluster"). It takes the arguments of `chex match` and a few of its own;
each task runs `chex match ... --pair K` on some worker and returns that
pair's records. The driver writes them to --out in pair order, so the
file is the same however the pairs were scheduled, and feeds them to
`chex match --stats OUT --follow`, which prints the progress lines, runs
the SPRT after each record and prints the final table: all statistics
are the Rust runner's own, none are computed here.

A pair whose worker died (its process or its whole node) is played again,
up to --tries times, and each game is recorded once. A driver that was
killed continues with --resume: games in --out are kept, the rest are
played. Once the SPRT decides, the tasks still queued or running are
cancelled.
"""

import argparse
import collections
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

# The table goes to the real standard output. Ray prints what its nodes
# report (a worker marked dead, say) to whatever sys.stdout is when the
# report arrives: that is pointed at standard error, so the table alone
# is on standard output, as `chex match` keeps it.
TABLE = sys.stdout
sys.stdout = sys.stderr
import time

# The options of `chex match` the driver must understand; every other
# argument goes to each task's `chex match` unchanged.
SPRT_FLAGS = ("--elo0", "--elo1", "--alpha", "--beta")


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="tools/cluster-match",
        description="Plays a chex match on a Ray cluster, one task per pair. "
        "Takes the arguments of `chex match` (see `chex match --help`) and these.",
    )
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=os.environ.get("RAY_ADDRESS", "auto"),
        help="the Ray cluster: the head's HOST:PORT as `ray start --head` printed it "
        "(default: $RAY_ADDRESS, else the cluster started on this machine)",
    )
    p.add_argument(
        "--chex",
        metavar="PATH",
        help="where the chex binary is on every worker (a shared file system, or "
        "installed on each); default: ship this machine's binary with Ray's runtime_env",
    )
    p.add_argument(
        "--local-chex",
        metavar="PATH",
        required=True,
        help="the chex binary on this machine: shipped to the workers unless --chex "
        "is given, and run here for the statistics (tools/cluster-match sets it)",
    )
    p.add_argument(
        "--tries",
        type=int,
        default=5,
        metavar="N",
        help="how many times a pair is played again after its worker died, after "
        "1, 2, 4, ... s (default 5)",
    )
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--text", metavar="FILE")
    p.add_argument("--positions", metavar="FILE")
    p.add_argument("--games", type=int)
    p.add_argument("--pairs", type=int)
    p.add_argument("--sprt", action="store_true")
    for flag in SPRT_FLAGS:
        p.add_argument(flag)
    p.add_argument("--engine1")
    p.add_argument("--engine2")
    p.add_argument("--concurrency")
    p.add_argument("--pair")
    p.add_argument("--stats")
    args, rest = p.parse_known_args(argv)
    if args.pair is not None or args.stats is not None:
        p.error("--pair and --stats are for chex match itself")
    if args.games is not None and args.pairs is not None:
        p.error("give --games or --pairs, not both")
    if args.tries < 0:
        p.error("--tries must be at least 0")
    return args, rest


# The statistics process, ended with the driver when it fails (it would
# print the table of a match cut short).
STATS = []


def fail(message):
    for stats in STATS:
        stats.process.kill()
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def check_reachable(address):
    """Ray waits minutes for a head that is not there; say so at once."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as e:
        fail(f"cannot reach the Ray head at {address}: {e.strerror or e}")


def size_args(args):
    """The match's size as chex match takes it, and its pairs."""
    if args.games is not None:
        games = args.games
        flags = ["--games", str(games)]
    else:
        pairs = args.pairs if args.pairs is not None else (10_000 if args.sprt else 50)
        games = 2 * pairs
        flags = ["--pairs", str(pairs)]
    if games < 1:
        fail("nothing to play: --games/--pairs must be at least 1")
    return flags, games


def sprt_args(args):
    flags = ["--sprt"] if args.sprt else []
    for flag in SPRT_FLAGS:
        value = getattr(args, flag[2:])
        if value is not None:
            flags += [flag, value]
    return flags


def repair_tail(path):
    """A driver killed while writing leaves at most its last line torn:
    a whole record gets its newline back, a torn line is cut off (its
    game is played again). The same repair as `chex match --resume`."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return
    if not data or data.endswith(b"\n"):
        return
    cut = data.rfind(b"\n") + 1
    try:
        json.loads(data[cut:])
        with open(path, "ab") as f:
            f.write(b"\n")
        print(f"warning: {path}: the last record had no newline; added it", file=sys.stderr)
    except ValueError:
        with open(path, "r+b") as f:
            f.truncate(cut)
        print(f"warning: {path}: dropped an unfinished last line; its game is played again",
              file=sys.stderr)


def recorded_games(path):
    """The game numbers in a records file (chex checks the records
    themselves when it reads the file for the statistics)."""
    games = set()
    try:
        with open(path) as f:
            for line in f:
                if line.strip():
                    try:
                        games.add(int(json.loads(line)["game"]))
                    except (ValueError, KeyError, TypeError):
                        pass  # chex --stats names the bad line
    except FileNotFoundError:
        pass
    return games


def keep_samples(path, games):
    """Drops the samples of games without a record: the driver writes a
    pair's samples before its records, as chex match does."""
    if not os.path.exists(path):
        return
    kept, dropped = [], 0
    with open(path) as f:
        for line in f:
            try:
                if int(json.loads(line)["game"]) in games:
                    kept.append(line)
                    continue
            except (ValueError, KeyError, TypeError):
                pass
            dropped += 1
    if dropped:
        with open(path + ".resume-tmp", "w") as f:
            f.writelines(kept)
        os.replace(path + ".resume-tmp", path)
        print(f"warning: {path}: dropped {dropped} samples of games not recorded",
              file=sys.stderr)


def play_pair(pair, match_args, chex_path, want_text, want_positions):
    """A Ray task: plays pair `pair` with `chex match --pair` and returns
    its records (and text records and samples, if asked for), or why it
    failed and whether playing it again may help."""
    work = tempfile.mkdtemp(prefix="chex-pair-")
    try:
        # Engines are run as `chex`, found on PATH: the same command on
        # every worker, however the binary got there.
        binary = os.path.join(work, "chex")
        if chex_path is None:
            shutil.copy(os.path.join(os.getcwd(), "chex"), binary)
            os.chmod(binary, 0o755)
        else:
            os.symlink(os.path.abspath(chex_path), binary)
        out = os.path.join(work, "out.jsonl")
        command = [binary, "match", *match_args, "--pair", str(pair), "--out", out]
        if want_text:
            command += ["--text", os.path.join(work, "text")]
        if want_positions:
            command += ["--positions", os.path.join(work, "positions.jsonl")]
        env = dict(os.environ, PATH=work + os.pathsep + os.environ.get("PATH", ""))

        def die_with_worker():
            # If Ray kills this worker (a cancelled task), chex goes too.
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

        done = subprocess.run(command, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              preexec_fn=die_with_worker, check=False)
        if done.returncode != 0:
            lines = done.stderr.decode(errors="replace").strip().splitlines()
            why = lines[-1] if lines else f"exit status {done.returncode}"
            # Killed by a signal: the machine, not the match, failed.
            return {"pair": pair, "error": why, "retry": done.returncode < 0}

        def read(name):
            path = os.path.join(work, name)
            return open(path).read() if os.path.exists(path) else ""

        return {
            "pair": pair,
            "records": read("out.jsonl"),
            "text": read("text"),
            "positions": read("positions.jsonl"),
            "node": os.uname().nodename,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


class Stats:
    """`chex match --stats OUT --follow`: the runner's statistics, fed
    record by record. Its progress lines go straight to our stderr."""

    def __init__(self, chex, out, size, sprt):
        command = [chex, "match", "--stats", out, "--follow", *size, *sprt]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        # The state after the records already in OUT: read, so the file
        # is not appended to before chex has read it.
        self.state = self._answer()

    def _answer(self):
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            sys.exit(1)  # chex said why on stderr
        return line.strip()

    def add(self, record_line):
        self.process.stdin.write(record_line + "\n")
        self.process.stdin.flush()
        self.state = self._answer()

    def decided(self):
        return self.state in ("H0", "H1")

    def table(self):
        self.process.stdin.close()
        table = self.process.stdout.read()
        if self.process.wait() != 0:
            sys.exit(1)
        return table


def text_games(text):
    """The text records of a pair, split by game: {game: text}."""
    out = {}
    for chunk in text.split('[Game "')[1:]:
        number = chunk.split('"', 1)[0]
        if number.isdigit():
            out[int(number)] = '[Game "' + chunk
    return out


def append(path, text):
    """Appends and syncs, so a killed driver leaves at most one torn line."""
    if path and text:
        with open(path, "a") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())


def main(argv):
    args, rest = parse_args(argv)
    size, games = size_args(args)
    sprt = sprt_args(args)
    pairs = (games + 1) // 2
    match_args = [*rest, *size]
    match_args += ["--engine1", args.engine1 or "chex", "--engine2", args.engine2 or "chex"]
    if args.concurrency not in (None, "1"):
        print("note: --concurrency is ignored: each task plays its pair's games one "
              "after the other, and the cluster runs one task a CPU", file=sys.stderr)

    used = os.path.exists(args.out) and os.path.getsize(args.out) > 0
    if used and not args.resume:
        fail(f"{args.out} already holds records: add --resume to continue that match, "
             "or choose another file")
    if not args.resume:
        for path in (args.text, args.positions):
            if path:
                open(path, "w").close()
    try:
        import ray
    except ImportError:
        fail("this Python has no ray: use tools/venv DIR tools/ray-requirements.txt and CHEX_RAY_PYTHON=DIR/bin/python")
    check_reachable(args.cluster)
    repair_tail(args.out)
    stats = Stats(args.local_chex, args.out, size, sprt)
    STATS.append(stats)
    done = recorded_games(args.out)
    if args.positions:
        keep_samples(args.positions, done)

    def games_of(pair):
        return [g for g in (2 * pair + 1, 2 * pair + 2) if g <= games]

    todo = collections.deque(p for p in range(pairs) if not set(games_of(p)) <= done)
    if stats.decided() or not todo:
        print(stats.table(), end="", file=TABLE)
        return

    runtime_env, ship = None, None
    if args.chex is None:
        # Ray zips this directory into the cluster's store once and
        # unpacks it on each worker as the tasks' working directory.
        ship = tempfile.mkdtemp(prefix="chex-ship-")
        shutil.copy(args.local_chex, os.path.join(ship, "chex"))
        runtime_env = {"working_dir": ship}
    try:
        ray.init(address=args.cluster, runtime_env=runtime_env, logging_level="ERROR",
                 log_to_driver=False)
    except (ConnectionError, ValueError, RuntimeError) as e:
        fail(f"cannot use the Ray cluster at {args.cluster}: {str(e).splitlines()[0]}")
    finally:
        # ray.init has uploaded it to the cluster (and put the upload's
        # address in runtime_env), or failed.
        if ship:
            shutil.rmtree(ship, ignore_errors=True)
    task = ray.remote(play_pair).options(num_cpus=1, max_retries=0)

    def submit(pair):
        return task.remote(pair, match_args, args.chex, bool(args.text), bool(args.positions))

    # A few more tasks than CPUs are in flight, so no CPU waits for the
    # driver; the rest are submitted as those finish.
    ahead = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
    running = {}
    tries = collections.Counter()
    finished = {}
    order = list(todo)
    next_index = 0  # into `order`: the next pair to write

    def refill():
        while todo and len(running) < ahead:
            pair = todo.popleft()
            running[submit(pair)] = pair

    def stop(message=None):
        for ref in running:
            ray.cancel(ref, force=True)
        if message:
            fail(message)

    # Pairs to play again, with when: a node that just died is still
    # taken for alive for some seconds, and a task sent at once would go
    # to it again, so each retry waits twice as long as the last.
    again = []

    refill()
    while (running or again) and not stats.decided():
        now = time.monotonic()
        for when, pair in [item for item in again if item[0] <= now]:
            again.remove((when, pair))
            running[submit(pair)] = pair
        ready = ray.wait(list(running), num_returns=1, timeout=0.5)[0] if running else []
        if not ready:
            if not running:
                time.sleep(0.5)
            continue
        [ready] = ready
        pair = running.pop(ready)
        try:
            result = ray.get(ready)
        except ray.exceptions.RayTaskError as e:
            stop(f"pair {pair}: {e}")
        except Exception as e:  # noqa: BLE001
            # Anything else is the cluster's failure, not the match's: a
            # dead worker or node (RayError), or a result lost with its
            # node's object store, which Ray reports as an OSError.
            result = {"pair": pair, "error": type(e).__name__, "retry": True}
        if "error" in result:
            if not result["retry"]:
                stop(f"pair {pair}: {result['error']}")
            tries[pair] += 1
            if tries[pair] > args.tries:
                stop(f"pair {pair} failed {tries[pair]} times, last: {result['error']}")
            delay = 2 ** (tries[pair] - 1)
            print(f"\nnote: pair {pair} was lost with its worker ({result['error']}); "
                  f"playing it again in {delay} s", file=sys.stderr)
            again.append((time.monotonic() + delay, pair))
            continue
        finished[pair] = result
        # Written in pair order: the file is the same however pairs were
        # scheduled, and the SPRT sees the pairs in that order too.
        while next_index < len(order) and order[next_index] in finished:
            result = finished.pop(order[next_index])
            next_index += 1
            lines = [line for line in result["records"].splitlines() if line.strip()]
            fresh = [line for line in lines if int(json.loads(line)["game"]) not in done]
            if args.positions:
                samples = [s for s in result["positions"].splitlines(keepends=True)
                           if int(json.loads(s)["game"]) not in done]
                append(args.positions, "".join(samples))
            texts = text_games(result["text"])
            for line in fresh:
                game = int(json.loads(line)["game"])
                stats.add(line)
                append(args.out, line + "\n")
                append(args.text, texts.get(game, ""))
                done.add(game)
            if stats.decided():
                break
        refill()
    stop()
    print(stats.table(), end="", file=TABLE)


if __name__ == "__main__":
    main(sys.argv[1:])
