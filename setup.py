"""The compiled kernel (kernel/flatkernel.c), built by ``pip install .`` where a C compiler is found.

Everything else about the package is in pyproject.toml. The extension is optional: where it cannot
be built (no compiler, or one without 128-bit integers), the install goes on without it and the
package prices the same numbers in Python integers and numpy.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("_exactodds_kernel", ["kernel/flatkernel.c"], optional=True, extra_compile_args=["-O3"]),
    ],
)
