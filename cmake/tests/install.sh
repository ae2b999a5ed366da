#!/bin/sh
# install.sh BUILD_DIR WORK_DIR CMAKE CC PKG_CONFIG — installs the build into a
# fresh prefix and checks that users can build BSP programs from it in the three
# documented ways (the installed bspcc, pkg-config, find_package), that the
# installed tool runs them, and that the installed tree still works once moved.
set -eu
build=$1
work=$2
cmake=$3
cc=$4
pkg_config=$5
rm -rf "$work"
mkdir -p "$work"

fail() {
    echo "FAIL: $*"
    exit 1
}

"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" || {
    cat "$work/install.log"
    fail "cmake --install"
}

# check_tree PREFIX TAG: builds and runs programs against the tree at PREFIX.
check_tree() {
    prefix=$1
    tag=$2
    out=$work/$tag
    mkdir -p "$out"
    examples=$prefix/share/polybsp/examples
    for example in hello.c inprod.c; do
        [ -f "$examples/$example" ] || fail "$tag: $example not installed"
    done
    "$prefix/bin/polybsp" --version | grep -q "^polybsp [0-9]" || fail "installed polybsp --version"

    # 1. the installed bspcc, and the installed tool to run the result
    "$prefix/bin/bspcc" -o "$out/inprod" "$examples/inprod.c" -lm
    "$prefix/bin/polybsp" run -p 3 "$out/inprod" 1000 >"$out/inprod.out"
    grep -qx "inprod: n = 1000, p = 3" "$out/inprod.out" || fail "$tag: bspcc inprod"
    grep -qx "inprod: OK" "$out/inprod.out" || fail "$tag: bspcc inprod"
    "$prefix/bin/bsprun" -n 2 "$out/inprod" 1000 >"$out/inprod2.out"
    grep -qx "inprod: n = 1000, p = 2" "$out/inprod2.out" || fail "$tag: bsprun inprod"
    # The man pages: `man bsp_put` finds its page once the prefix is in MANPATH.
    for page in man1/bspcc.1 man1/bsprun.1 man1/polybsp.1 man1/polybsp-run.1 man3/bsp.3 man3/bsp_put.3; do
        [ -f "$prefix/share/man/$page" ] || fail "$tag: $page not installed"
    done
    if command -v man >/dev/null; then
        [ "$(man -M "$prefix/share/man" -w bsp_put)" = "$prefix/share/man/man3/bsp_put.3" ] ||
            fail "$tag: man -M PREFIX/share/man -w bsp_put: $(man -M "$prefix/share/man" -w bsp_put 2>&1)"
    fi

    # The installed examples build as their Makefile says (the papers' need
    # common/ex_util.c), with the installed bspcc.
    cp -r "$examples" "$out/examples"
    make -s -C "$out/examples" BSPCC="$prefix/bin/bspcc" >"$out/make.log" 2>&1 ||
        fail "$tag: make in the installed examples: $(cat "$out/make.log")"
    "$prefix/bin/bsprun" -n 2 "$out/examples/multisearch" -n 256 --check >"$out/ms.out" 2>&1 ||
        fail "$tag: the installed multisearch: $(cat "$out/ms.out")"

    # 2. pkg-config (PKG_CONFIG_PATH is searched before the system's directories)
    pcfile=$(find "$prefix" -name polybsp.pc)
    [ -n "$pcfile" ] || fail "polybsp.pc not installed"
    pcdir=$(dirname "$pcfile")
    cflags=$(PKG_CONFIG_PATH=$pcdir "$pkg_config" --cflags polybsp)
    libs=$(PKG_CONFIG_PATH=$pcdir "$pkg_config" --libs polybsp)
    libdir=$(PKG_CONFIG_PATH=$pcdir "$pkg_config" --variable=libdir polybsp)
    # shellcheck disable=SC2086 # flags from pkg-config are meant to be split
    "$cc" $cflags -o "$out/hello_pc" "$examples/hello.c" $libs
    n=$(LD_LIBRARY_PATH=$libdir POLYBSP_NPROCS=2 "$out/hello_pc" | grep -c "^Hello from process" || true)
    [ "$n" -eq 2 ] || fail "$tag: pkg-config hello printed $n lines"

    # 3. find_package(polybsp) in a CMake project, with the static and shared library
    mkdir -p "$out/project"
    cp "$examples/hello.c" "$out/project/"
    cat >"$out/project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(uses_polybsp C)
find_package(polybsp 0.1 REQUIRED)
add_executable(hello hello.c)
target_link_libraries(hello PRIVATE polybsp::polybsp)
add_executable(hello_shared hello.c)
target_link_libraries(hello_shared PRIVATE polybsp::shared)
CMAKE
    "$cmake" -S "$out/project" -B "$out/project/build" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_C_COMPILER="$cc" >"$out/cmake.log" 2>&1 || {
        cat "$out/cmake.log"
        fail "$tag: find_package project configure"
    }
    "$cmake" --build "$out/project/build" >>"$out/cmake.log" 2>&1 || {
        cat "$out/cmake.log"
        fail "$tag: find_package project build"
    }
    for exe in hello hello_shared; do
        n=$(POLYBSP_NPROCS=3 "$out/project/build/$exe" | grep -c "^Hello from process" || true)
        [ "$n" -eq 3 ] || fail "$tag: find_package $exe printed $n lines"
    done
}

check_tree "$work/prefix" installed
mv "$work/prefix" "$work/moved"
check_tree "$work/moved" moved
echo "install: all checks passed"
