"""The Hard bot's search core is a C extension (app/bots/_search.c); the rest is pyproject.toml."""

from setuptools import Extension, setup

# -O3 vectorizes the play-out policy's loops over its hidden units, most of an Expert decision;
# without fast-math the results are the same, bit for bit, as at -O2.
setup(
    ext_modules=[
        Extension("app.bots._search", ["app/bots/_search.c"], extra_compile_args=["-O3"]),
    ]
)
