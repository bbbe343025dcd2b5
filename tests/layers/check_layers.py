#!/usr/bin/env python3
"""Checks that every #include of the tree runs down the floors that layers.txt declares.

Each line of layers.txt names a room (a folder, by its path from the repository root) and
its floor. A file belongs to the room with the longest matching folder; it may include
files of its own room and of rooms on lower floors, never of a room on its own floor or
above. A file under a layered top folder (sim/, cost/ ...) that belongs to no room is an
error too, so a new folder must be given its floor. Exit status: 0 clean, 1 arrows that
run the wrong way (each printed with file:line), 2 a bad layers.txt or arguments.

  check_layers.py [--root DIR] [--layers FILE]
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
SOURCE_SUFFIXES = ('.cpp', '.hpp', '.h', '.cuh', '.cu', '.inc', '.c')


class Layers:
    def __init__(self, rooms, checked_tops, unchecked):
        self.rooms = rooms              # folder -> floor
        self.checked_tops = checked_tops  # top folders every file of which must be in a room
        self.unchecked = unchecked      # folders whose files are not checked (tests, docs ...)

    def room_of(self, path):
        best = None
        for room in self.rooms:
            if path == room or path.startswith(room + '/'):
                if best is None or len(room) > len(best):
                    best = room
        return best


def read_layers(path):
    rooms, unchecked = {}, []
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) == 2 and fields[1] == 'unchecked':
                unchecked.append(fields[0].rstrip('/'))
                continue
            if len(fields) != 2 or not fields[1].isdigit():
                raise ValueError(f'{path}:{number}: expected "FOLDER FLOOR" or "FOLDER unchecked", got "{line}"')
            room = fields[0].rstrip('/')
            if room in rooms:
                raise ValueError(f'{path}:{number}: {room} is declared twice')
            rooms[room] = int(fields[1])
    checked_tops = sorted({r.split('/')[0] for r in rooms})
    return Layers(rooms, checked_tops, unchecked)


def source_files(root, layers):
    for top in layers.checked_tops:
        for folder, _, files in os.walk(os.path.join(root, top)):
            rel_folder = os.path.relpath(folder, root)
            if any(rel_folder == u or rel_folder.startswith(u + '/') for u in layers.unchecked):
                continue
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(rel_folder, name)


def resolve(root, including, target):
    """The repository-relative path an include names, or None for a system header."""
    beside = os.path.normpath(os.path.join(os.path.dirname(including), target))
    if os.path.exists(os.path.join(root, beside)):
        return beside
    if os.path.exists(os.path.join(root, target)):
        return os.path.normpath(target)
    return None


def check(root, layers):
    wrong, homeless = [], []
    for path in source_files(root, layers):
        room = layers.room_of(path)
        if room is None:
            homeless.append(path)
            continue
        with open(os.path.join(root, path), errors='replace') as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, path, m.group(1))
                if target is None:
                    continue
                to = layers.room_of(target)
                if to is None or to == room:
                    continue
                if layers.rooms[to] >= layers.rooms[room]:
                    wrong.append(f'{path}:{number}: {room} (floor {layers.rooms[room]}) includes '
                                 f'{target} of {to} (floor {layers.rooms[to]})')
    return wrong, homeless


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', default=os.path.normpath(os.path.join(here, '..', '..')))
    parser.add_argument('--layers', help='the floor map (default: ROOT/layers.txt)')
    args = parser.parse_args()
    layers_path = args.layers or os.path.join(args.root, 'layers.txt')
    try:
        layers = read_layers(layers_path)
    except (OSError, ValueError) as e:
        print(f'check_layers: {e}', file=sys.stderr)
        return 2
    wrong, homeless = check(args.root, layers)
    for w in wrong:
        print(w)
    for h in homeless:
        print(f'{h}: in no room of {os.path.relpath(layers_path, args.root)}: give its folder a floor')
    if wrong or homeless:
        print(f'check_layers: {len(wrong)} include(s) running up or sideways, {len(homeless)} file(s) in no room',
              file=sys.stderr)
        return 1
    print(f'check_layers: {len(layers.rooms)} rooms, every include runs down')
    return 0


if __name__ == '__main__':
    sys.exit(main())
