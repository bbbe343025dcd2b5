#!/usr/bin/env python3
"""The layer check on the real tree, and on small planted trees where it must fail.

Run by ctest (layers). Each planted tree is a copy of the rule in miniature: a ground
room, a room above it, and one include that runs the wrong way.
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, 'check_layers.py')
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))


def run(root, layers=None):
    args = [sys.executable, CHECK, '--root', root] + (['--layers', layers] if layers else [])
    return subprocess.run(args, capture_output=True, text=True)


def plant(files, layers):
    root = tempfile.mkdtemp(prefix='simt_layers_')
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), 'w') as f:
            f.write(text)
    with open(os.path.join(root, 'layers.txt'), 'w') as f:
        f.write(layers)
    return root


LAYERS = 'sim/memory 1\nsim/exec 2\nsim/report 3\n'


class RealTree(unittest.TestCase):
    def test_every_include_runs_down(self):
        r = run(ROOT)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


class PlantedTrees(unittest.TestCase):
    def test_downward_include_passes(self):
        root = plant({'sim/memory/a.hpp': '#pragma once\n',
                      'sim/exec/b.cpp': '#include "sim/memory/a.hpp"\n'}, LAYERS)
        r = run(root)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_back_edge_fails_naming_file_line_and_rooms(self):
        root = plant({'sim/memory/a.cpp': '// ground\n#include "sim/exec/b.hpp"\n',
                      'sim/exec/b.hpp': '#pragma once\n'}, LAYERS)
        r = run(root)
        self.assertEqual(r.returncode, 1)
        self.assertIn('sim/memory/a.cpp:2: sim/memory (floor 1) includes sim/exec/b.hpp of sim/exec (floor 2)',
                      r.stdout)

    def test_include_from_two_floors_up_fails(self):
        root = plant({'sim/memory/a.hpp': '#include <sim/report/r.hpp>\n',
                      'sim/report/r.hpp': '#pragma once\n'}, LAYERS)
        self.assertEqual(run(root).returncode, 1)

    def test_same_floor_other_room_fails(self):
        root = plant({'sim/memory/a.hpp': '#include "sim/math/m.hpp"\n',
                      'sim/math/m.hpp': '#pragma once\n'}, 'sim/memory 1\nsim/math 1\n')
        self.assertEqual(run(root).returncode, 1)

    def test_relative_include_is_resolved(self):
        root = plant({'sim/memory/a.cpp': '#include "../exec/b.hpp"\n',
                      'sim/exec/b.hpp': '#pragma once\n'}, LAYERS)
        r = run(root)
        self.assertEqual(r.returncode, 1)
        self.assertIn('sim/exec/b.hpp', r.stdout)

    def test_file_in_no_room_fails(self):
        root = plant({'sim/newroom/x.cpp': '\n', 'sim/memory/a.hpp': '\n'}, LAYERS)
        r = run(root)
        self.assertEqual(r.returncode, 1)
        self.assertIn('sim/newroom/x.cpp: in no room', r.stdout)

    def test_bad_layers_file_exits_2(self):
        root = plant({'sim/memory/a.hpp': '\n'}, 'sim/memory one\n')
        r = run(root)
        self.assertEqual(r.returncode, 2)
        self.assertIn('expected "FOLDER FLOOR"', r.stderr)

    def test_planted_back_edge_in_a_copy_of_the_real_map(self):
        # The real layers.txt over a tiny tree: the count rules may not reach into exec.
        with open(os.path.join(ROOT, 'layers.txt')) as f:
            real = f.read()
        root = plant({'sim/count/rule.cpp': '#include "sim/exec/worker.hpp"\n',
                      'sim/exec/worker.hpp': '#pragma once\n'}, real)
        r = run(root)
        self.assertEqual(r.returncode, 1)
        self.assertIn('sim/count/rule.cpp:1: sim/count', r.stdout)


if __name__ == '__main__':
    unittest.main()
