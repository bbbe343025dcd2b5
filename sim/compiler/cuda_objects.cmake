# simt_cuda_objects(OUT_VAR [UNINSTRUMENTED names...] SOURCES files... [HEADERS files...])
# builds CUDA files inside the build the way `simt cc` builds a learner's file
# (cli/program_build.cpp, docs/frontend.md): the syntax step (simt_syntax: `<<<>>>`
# launches and `extern __shared__`) writes each source and header to
# <binary dir>/syntax/<its path in the source tree>, where includes find them before
# the originals; clang compiles the result with simtlab's pass. A `#line` keeps every
# diagnostic and counter site on the original file and line. OUT_VAR receives the
# objects, to link into a target. Sources named in UNINSTRUMENTED are compiled with
# the pass leaving their kernels uncounted (the option pass_uninstrumented). No ccache: it
# would not see the pass plugin change.
file(GLOB_RECURSE SIMT_CUDA_HEADER_DEPENDS CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/sim/*.hpp ${PROJECT_SOURCE_DIR}/sim/*.h ${PROJECT_SOURCE_DIR}/sim/*.inc)
list(FILTER SIMT_CUDA_HEADER_DEPENDS EXCLUDE REGEX "/sim/compiler/(pass|syntax)/")
set(SIMT_CUDA_HEADER_DEPENDS ${SIMT_CUDA_HEADER_DEPENDS} CACHE INTERNAL "")

function(simt_syntax_copy src out_var)
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/syntax/${rel})
  get_filename_component(dir ${out} DIRECTORY)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND $<TARGET_FILE:simt_syntax> ${src} ${out}
    DEPENDS simt_syntax ${src}
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()

function(simt_cuda_objects out_var)
  cmake_parse_arguments(ARG "" "" "UNINSTRUMENTED;SOURCES;HEADERS" ${ARGN})
  set(copies "")
  foreach(h ${ARG_HEADERS})
    simt_syntax_copy(${h} copy)
    list(APPEND copies ${copy})
  endforeach()
  set(objects "")
  foreach(src ${ARG_SOURCES})
    simt_syntax_copy(${src} copy)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
    get_filename_component(name ${src} NAME)
    get_filename_component(src_dir ${src} DIRECTORY)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/clang/${rel}.o)
    get_filename_component(obj_dir ${obj} DIRECTORY)
    # The builder's $SIMT_OPTIONS must not change what the tree's kernels count (its
    # pass_* switches); UNINSTRUMENTED ones are built with the pass counting nothing.
    set(env ${CMAKE_COMMAND} -E env --unset=SIMT_OPTIONS)
    if(name IN_LIST ARG_UNINSTRUMENTED)
      set(env ${CMAKE_COMMAND} -E env SIMT_OPTIONS=pass_uninstrumented=1)
    endif()
    add_custom_command(
      OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${obj_dir}
      COMMAND ${env} ${SIMT_CLANGXX} ${SIMT_CUDA_COMPILE_FLAGS} -fPIC -pthread
              -fpass-plugin=$<TARGET_FILE:simt_pass> -I${PROJECT_SOURCE_DIR}/sim/compiler/include
              -include cuda_runtime.h -I${CMAKE_CURRENT_BINARY_DIR}/syntax -I${PROJECT_SOURCE_DIR}
              -iquote ${src_dir} -isystem /usr/include/eigen3 -x c++ -c ${copy} -o ${obj}
      DEPENDS simt_pass ${copy} ${copies} ${SIMT_CUDA_HEADER_DEPENDS}
      COMMENT "clang + simtlab's pass: ${rel}"
      VERBATIM)
    list(APPEND objects ${obj})
  endforeach()
  set(${out_var} ${objects} PARENT_SCOPE)
endfunction()
