"""The Hard bot's search core is a C extension (app/bots/_search.c); the rest is pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("app.bots._search", ["app/bots/_search.c"], extra_compile_args=["-O2"]),
    ]
)
