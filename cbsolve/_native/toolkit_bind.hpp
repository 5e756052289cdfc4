// The toolkit's face in Python, bound into each kernel module that uses it: the progress
// counters as a class with named fields (never numbered slots) and the list of stop words.
// Classes are module-local: every kernel module carries its own copy of the same binding.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "toolkit_control.hpp"

namespace {

inline void bind_toolkit(pybind11::module_& m) {
    namespace py = pybind11;
    py::class_<Progress>(m, "Progress", py::module_local(),
                         "A search's progress counters (a snapshot)")
        .def_readonly("nodes", &Progress::nodes)
        .def_readonly("top_done", &Progress::top_done)
        .def_readonly("top_total", &Progress::top_total)
        .def_readonly("memo_entries", &Progress::memo_entries);
    m.def("stop_reasons", [] {
        std::vector<const char*> words;
        for (StopReason r : kStopReasons) words.push_back(stop_word(r));
        return words;
    }, "The words this kernel may give as a stop reason (cbsolve.runtime.status.StopReason)");
}

}  // namespace
