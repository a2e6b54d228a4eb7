"""Language presets: how a bot's source is built and run, as data.

Each preset names the file endings it handles (``extensions``), or the file that marks a
folder of its kind (``marker``, such as ``Cargo.toml``), the build steps (``build``: a
command, or a list of commands run in order; none for languages that need no build), the
command that runs the result (``cmd``), and default compiler ``flags``. A tournament file
extends or overrides this table with its ``languages:`` key (see ``docs/languages.md``).

Commands are split like a shell would (``shlex``) and then each word's placeholders are
replaced, so paths with spaces stay one word:

* ``{source}``: the bot's main source file (absolute); ``{sources}``: all its source files
  (a word that is exactly ``{sources}`` becomes one word per file);
* ``{dir}``: the folder of the source (the source itself when it is a folder);
* ``{out}``: the build's own folder in the cache (every build step runs there);
* ``{name}``: the source's stem; ``{flags}``: the flags (several words);
* ``{main}``: Java's class declaring ``main`` (with its package);
* ``{package}``: Cargo's binary name (``[[bin]]`` name, else ``[package]`` name).

Several presets may claim one extension: the first whose programs are installed (and
whose ``probe`` command, if any, succeeds) is used. ``install`` is the hint shown when
none is.
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    "c": {
        "extensions": [".c"],
        "build": "gcc {flags} -o {out}/bot {sources} -lm",
        "flags": "-std=gnu17 -O2 -pipe",
        "cmd": "{out}/bot",
        "install": "apt-get install gcc",
    },
    "cpp": {
        "extensions": [".cpp", ".cc", ".cxx", ".c++"],
        "build": "g++ {flags} -o {out}/bot {sources}",
        "flags": "-std=gnu++17 -O2 -pipe",
        "cmd": "{out}/bot",
        "install": "apt-get install g++",
    },
    "java": {
        "extensions": [".java"],
        "build": "javac {flags} -encoding UTF-8 -d {out} {sources}",
        "flags": "",
        "cmd": "java -Xss64m -XX:-UsePerfData -cp {out} {main}",
        "install": "apt-get install default-jdk-headless",
    },
    "csharp": {
        "extensions": [".cs"],
        "build": "mcs {flags} -out:{out}/bot.exe {sources}",
        "flags": "-optimize+",
        "cmd": "mono {out}/bot.exe",
        "install": "apt-get install mono-mcs (or the .NET SDK: dotnet)",
    },
    "csharp-dotnet": {
        "extensions": [".cs"],
        "build": [
            "sh -c 'printf %s \"$1\" > bot.csproj' sh "
            '\'<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType>'
            "<TargetFramework>net8.0</TargetFramework><Nullable>disable</Nullable>"
            "<AssemblyName>bot</AssemblyName><EnableDefaultCompileItems>false"
            "</EnableDefaultCompileItems></PropertyGroup><ItemGroup>"
            '<Compile Include="{dir}/**/*.cs" /></ItemGroup></Project>\'',
            "dotnet build {flags} -o {out}/bin bot.csproj",
        ],
        "flags": "-c Release --nologo",
        "cmd": "dotnet {out}/bin/bot.dll",
        "install": "the .NET SDK (dotnet)",
    },
    "rust": {
        "extensions": [".rs"],
        "build": "rustc {flags} -o {out}/bot {source}",
        "flags": "--edition 2021 -C opt-level=2",
        "cmd": "{out}/bot",
        "install": "apt-get install rustc",
    },
    "rust-cargo": {
        "marker": "Cargo.toml",
        "build": [
            "cp -r {dir}/. {out}/crate",
            "cargo build {flags} --manifest-path {out}/crate/Cargo.toml --target-dir {out}/target",
        ],
        "flags": "--release --offline --quiet",
        "cmd": "{out}/target/release/{package}",
        "install": "apt-get install cargo",
    },
    "go": {
        "extensions": [".go"],
        "build": "go build {flags} -o {out}/bot {sources}",
        "flags": "",
        "cmd": "{out}/bot",
        "install": "apt-get install golang-go",
    },
    "go-module": {
        "marker": "go.mod",
        "build": 'sh -c \'cd "$1" && shift && exec go build "$@"\' sh {dir} {flags} -o {out}/bot .',
        "flags": "",
        "cmd": "{out}/bot",
        "install": "apt-get install golang-go",
    },
    "javascript": {
        "extensions": [".js", ".mjs", ".cjs"],
        "cmd": "node {source}",
        "install": "apt-get install nodejs",
    },
    "typescript": {
        "extensions": [".ts"],
        "build": "tsc {flags} --outDir {out} {sources}",
        "flags": "--target es2022 --module commonjs --skipLibCheck",
        "cmd": "node {out}/{name}.js",
        "install": "npm install -g typescript",
    },
    "typescript-node": {
        "extensions": [".ts"],
        "probe": "node --experimental-strip-types --eval 0",
        "cmd": "node --experimental-strip-types --no-warnings {source}",
        "install": "node 22.6 or later",
    },
    "python": {
        "extensions": [".py"],
        "cmd": "python3 {source}",
        "install": "apt-get install python3",
    },
}
"""The built-in presets, by name (the ``language:`` a bot may give)."""

PRESET_KEYS = ("extensions", "marker", "build", "flags", "cmd", "probe", "install")
"""The keys a preset may have (in the table and in a tournament's ``languages:``)."""
