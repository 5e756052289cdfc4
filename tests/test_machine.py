"""The machine line written beside every recorded time (cbsolve.runtime.machine)."""
import builtins
import re

from cbsolve.runtime import machine


def test_the_line_names_cpu_cores_memory_and_the_kernels_path():
    assert re.fullmatch(r".+, \d+ cores, \d+ GiB, kernels (scalar|avx2|avx512) \(.+\)",
                        machine.describe())


def test_without_proc_cpuinfo_the_cpu_comes_from_platform(monkeypatch):
    real_open = builtins.open

    def no_cpuinfo(path, *args, **kwargs):
        if str(path) == "/proc/cpuinfo":
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", no_cpuinfo)
    monkeypatch.setattr(machine.platform, "processor", lambda: "")
    monkeypatch.setattr(machine.platform, "machine", lambda: "riscv64")
    assert machine.cpu_model() == "riscv64"
