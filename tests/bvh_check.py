#!/usr/bin/env python3
"""Check a labanplay BVH file against a JSON of expected world joint positions.

The BVH is parsed with the PyPI `bvh` package (`pip install bvh`); world positions are computed
here by forward kinematics (offset + position channels, rotations composed in channel order,
as BVH defines). The JSON is what `labanplay::export::bvh::joint_positions_json` writes:

    {"fps": 30.0, "units": "m", "joints": ["Hips", ...],
     "frames": [[[x, y, z], ...one per joint], ...one per frame]}

Usage:
    python3 tests/bvh_check.py FILE.bvh EXPECTED.json [--tolerance-mm 0.5] [--bvh-unit-m 0.01]

Prints the worst error per joint and exits 0 when every joint of every frame is within the
tolerance (default 0.5 mm), 1 when any is not, 2 on structural mismatch (joint names, frame
count, frame rate).
"""

import argparse
import json
import math
import sys

try:
    from bvh import Bvh
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("bvh_check.py needs the PyPI package `bvh`: pip install bvh")


def rotation(axis, degrees):
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    if axis == "X":
        return [[1, 0, 0], [0, c, -s], [0, s, c]]
    if axis == "Y":
        return [[c, 0, s], [0, 1, 0], [-s, 0, c]]
    return [[c, -s, 0], [s, c, 0], [0, 0, 1]]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def apply(m, v):
    return [sum(m[i][k] * v[k] for k in range(3)) for i in range(3)]


IDENTITY = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]


def world_positions(mocap, unit_m):
    """Yields, per frame, {joint name: [x, y, z] in metres}."""
    names = mocap.get_joints_names()
    info = []
    for name in names:
        parent = mocap.joint_parent(name)
        info.append(
            (
                name,
                parent.name if parent is not None else None,
                [c * unit_m for c in mocap.joint_offset(name)],
                mocap.joint_channels(name),
                mocap.get_joint_channels_index(name),
            )
        )
    for frame in mocap.frames:
        rot, pos = {}, {}
        for name, parent, offset, channels, first in info:
            local_rot = IDENTITY
            local_pos = list(offset)
            for k, channel in enumerate(channels):
                value = float(frame[first + k])
                if channel.endswith("position"):
                    local_pos["XYZ".index(channel[0])] += value * unit_m
                else:
                    local_rot = matmul(local_rot, rotation(channel[0], value))
            parent_rot = rot[parent] if parent else IDENTITY
            parent_pos = pos[parent] if parent else [0.0, 0.0, 0.0]
            moved = apply(parent_rot, local_pos)
            pos[name] = [parent_pos[i] + moved[i] for i in range(3)]
            rot[name] = matmul(parent_rot, local_rot)
        yield pos


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bvh_file")
    parser.add_argument("expected_json")
    parser.add_argument("--tolerance-mm", type=float, default=0.5)
    parser.add_argument("--bvh-unit-m", type=float, default=0.01, help="metres per BVH unit (cm: 0.01)")
    args = parser.parse_args()

    with open(args.bvh_file) as f:
        mocap = Bvh(f.read())
    with open(args.expected_json) as f:
        expected = json.load(f)

    names = mocap.get_joints_names()
    missing = [j for j in expected["joints"] if j not in names]
    if missing:
        print(f"FAIL: joints missing from the BVH: {missing}")
        return 2
    if mocap.nframes != len(expected["frames"]) or len(mocap.frames) != mocap.nframes:
        print(f"FAIL: BVH has {mocap.nframes} frames ({len(mocap.frames)} lines), JSON has {len(expected['frames'])}")
        return 2
    if abs(mocap.frame_time * expected["fps"] - 1.0) > 1e-6:
        print(f"FAIL: frame time {mocap.frame_time} s does not match fps {expected['fps']}")
        return 2

    worst = {name: (0.0, -1) for name in expected["joints"]}
    for f, (got, want) in enumerate(zip(world_positions(mocap, args.bvh_unit_m), expected["frames"])):
        for name, w in zip(expected["joints"], want):
            err_mm = 1000.0 * math.dist(got[name], w)
            if err_mm > worst[name][0]:
                worst[name] = (err_mm, f)

    failed = False
    for name in expected["joints"]:
        err_mm, frame = worst[name]
        bad = err_mm > args.tolerance_mm
        failed |= bad
        print(f"{'FAIL' if bad else 'ok  '} {name:<14} worst {err_mm:.4f} mm (frame {frame})")
    overall = max(e for e, _ in worst.values())
    print(f"{len(expected['frames'])} frames, {len(expected['joints'])} joints, worst {overall:.4f} mm, tolerance {args.tolerance_mm} mm")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
