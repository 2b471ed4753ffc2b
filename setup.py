"""The compiled kernel (kernel/flatkernel.c), built by ``pip install .`` where a C compiler is found.

Everything else about the package is in pyproject.toml. The extension is optional: where it cannot
be built (no compiler, or one without 128-bit integers), the install goes on without it and the
package prices the same numbers in Python integers and numpy.

Its loops are aligned to 64 bytes where the compiler takes the flag (GCC, recent Clang): where a hot loop of the
128-bit walk started in a build moved its shoes' time by some 15% from one build to the next (benchmarks/kernel.py).
A compiler that refuses the flag builds the kernel without it.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

FLAGS = ["-O3"]
ALIGNED = [*FLAGS, "-falign-loops=64"]


class BuildKernel(build_ext):
    """build_ext that tries the kernel with its loops aligned, then without."""

    def build_extension(self, ext: Extension) -> None:
        ext.extra_compile_args = ALIGNED
        try:
            super().build_extension(ext)
        except Exception:  # a compiler without the flag: the kernel as it is (still optional if this fails too)
            ext.extra_compile_args = FLAGS
            super().build_extension(ext)


setup(
    ext_modules=[Extension("_exactodds_kernel", ["kernel/flatkernel.c"], optional=True, extra_compile_args=FLAGS)],
    cmdclass={"build_ext": BuildKernel},
)
