# Arbiter — MIT licence, see LICENSE.
# The extension module arbiter._arbiter is built by cffi from arbiter_build.py (which compiles the
# C library's own sources, listed once in ../CMakeLists.txt), on every core unless told otherwise
# (build_ext --parallel N).
import os

from setuptools import setup
from setuptools.command.build_ext import build_ext


class parallel_build_ext(build_ext):
    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(cffi_modules=["arbiter_build.py:ffi"], cmdclass={"build_ext": parallel_build_ext})
