#!/usr/bin/env python3
"""A Watergate bot in Python with the standard library only: joins a match with a bot token and plays
random legal actions over the HTTP bot API (docs/BOT-API.md) until the game ends.

    python3 bot.py http://127.0.0.1:8000 wgb_... MATCH_ID [0|1]
"""
import json
import random
import sys
import time
import urllib.error
import urllib.request

server, token, match = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
seat = sys.argv[4] if len(sys.argv) > 4 else None
auth = {"Authorization": "Bearer " + token}


def post(path, body):
    req = urllib.request.Request(server + path, json.dumps(body).encode(), {**auth, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


post(f"/games/watergate/{match}/join", {"playerID": seat} if seat else {})
while True:  # one pass per stream; a stream that drops is opened again at the current state
    try:
        with urllib.request.urlopen(urllib.request.Request(f"{server}/api/bot/game/stream/{match}", headers=auth)) as stream:
            for raw in stream:  # NDJSON: one object a line, empty lines keep the connection alive
                if not raw.strip():
                    continue
                line = json.loads(raw)
                if line["type"] == "gameFinish":
                    print("game over:", line["status"])
                    sys.exit(0)
                if line.get("legal"):
                    action = random.choice(line["legal"])
                    status, answer = post(f"/api/bot/game/{match}/move", {"stateID": line["stateID"], "action": action["id"]})
                    while status == 429:  # past the move limit (10 a second): wait, then send it again
                        time.sleep(1)
                        status, answer = post(f"/api/bot/game/{match}/move", {"stateID": line["stateID"], "action": action["id"]})
                    if status not in (200, 409):  # 409: the state moved on, the next line is coming
                        print("refused:", action["text"], status, answer, file=sys.stderr)
    except urllib.error.HTTPError as e:
        sys.exit(f"the game stream refused: {e.code} {e.read().decode()}")
    except (urllib.error.URLError, ConnectionError) as e:
        print("stream dropped:", e, file=sys.stderr)
    time.sleep(1)
