// Python bindings of the expected-case exact search (cbsolve/search/expected/ drives it): the
// module `search_expected` and its `Solver`, a thin layer over the plain C++ Solver of
// search_expected_solver.hpp (the search, its options and its table, described there). Here
// only: NumPy arrays and Python lists in and out, the argument checks that need Python's types,
// the score matrix kept alive for the Solver that borrows it, and the GIL released around every
// call that searches (several Python threads share one Solver).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "search_expected_solver.hpp"
#include "toolkit_bind.hpp"

namespace py = pybind11;

namespace {

using Codes = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;
using Indices = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;

// The score matrix, held before the Solver that borrows it is built and released after it.
struct MatrixKeep {
    py::object matrix;
    const uint8_t* data = nullptr;
    MatrixKeep(py::object matrix_obj, int n_codes) : matrix(matrix_obj) {
        if (matrix_obj.is_none()) return;
        auto m = matrix_obj.cast<Codes>();
        if (m.ndim() != 2 || m.shape(0) != n_codes || m.shape(1) != n_codes)
            throw std::invalid_argument("matrix must be square (all codes x all codes)");
        matrix = m;
        data = m.data();
    }
};

int rows_of(const Codes& codes) {
    if (codes.ndim() != 2) throw std::invalid_argument("codes must be a 2-D array");
    return static_cast<int>(codes.shape(0));
}

std::vector<int> set_of(const Indices& set) { return std::vector<int>(set.data(), set.data() + set.size()); }

class PySolver : MatrixKeep, public Solver {
   public:
    // `matrix` None: no matrix, replies scored from the packed codes (toolkit_replies.hpp;
    // `repeats`, `bulls_only` and `responses`, the replies that occur, describe the variant).
    PySolver(py::object matrix, Codes codes, int n_symbols, u64 base_played, int slots, int win,
             int branching, bool cand_only, int max_depth, i64 memo_entries,
             std::vector<i64> weights, bool repeats, bool bulls_only, std::vector<int> responses,
             i64 table_bytes)
        : MatrixKeep(matrix, rows_of(codes)),
          Solver(MatrixKeep::data, scorer(matrix, codes, n_symbols, repeats, bulls_only, table_bytes),
                 codes.data(), rows_of(codes), static_cast<int>(codes.shape(1)), n_symbols,
                 base_played, slots, win, branching, cand_only, max_depth, memo_entries,
                 std::move(weights), std::move(responses)) {}

    bool py_prepare() {
        py::gil_scoped_release nogil;
        return prepare();
    }

    // (t, w, exact): exact is False on a fail-high (value >= budget, t/w a lower bound); None
    // when stopped (time limit or request_stop).
    py::object py_solve(Indices set, int depth, i64 bt, int bw, u64 played, py::object guesses,
                        py::object history) {
        std::vector<int> S = set_of(set), hist = history_of(history), allowed;
        const bool restricted = !guesses.is_none();
        if (restricted) {
            allowed = set_of(guesses.cast<Indices>());
            for (int g : allowed)
                if (g < 0 || g >= n_codes()) throw std::invalid_argument("guess index out of range");
        }
        const Val B{bt, bw};
        std::optional<Val> v;
        {
            py::gil_scoped_release nogil;
            v = solve_set(S, depth, B, played, restricted ? &allowed : nullptr, hist,
                          !history.is_none());
        }
        if (!v) return py::none();
        // A set with no strategy within the depth cap is worth (INF_T, w) for some small w,
        // which is below the budget (INF_T, INF_W) of an unbounded call: not an exact value.
        return py::make_tuple(v->t, v->w, lt(*v, B) && v->t < INF_T);
    }

    py::object py_guess_value(Indices set, int guess, int depth, u64 played, py::object history) {
        std::vector<int> S = set_of(set), hist = history_of(history);
        std::optional<Val> v;
        {
            py::gil_scoped_release nogil;
            v = guess_value_at(S, guess, depth, played, hist, !history.is_none());
        }
        if (!v) return py::none();
        return py::make_tuple(v->t, v->w);
    }

    py::tuple py_lower_bound(Indices set, int depth, u64 played, py::object history) {
        std::vector<int> S = set_of(set), hist = history_of(history);
        bool exact = false;
        Val v;
        {
            py::gil_scoped_release nogil;
            v = lower_bound(S, depth, played, hist, !history.is_none(), exact);
        }
        return py::make_tuple(v.t, v.w, exact);
    }

    void py_store_exact(Indices set, int depth, i64 t, int w, int guess) {
        store_exact(set_of(set), depth, t, w, guess);
    }

    int py_best_guess(Indices set, int depth) { return best_guess(set_of(set), depth); }

    py::list py_scan(Indices set, int depth, u64 played, py::object guesses, py::object history) {
        std::vector<int> S = set_of(set), hist = history_of(history), allowed;
        if (!guesses.is_none()) allowed = set_of(guesses.cast<Indices>());
        std::vector<GuessInfo> gl;
        {
            py::gil_scoped_release nogil;
            gl = scan_set(S, depth, played, guesses.is_none() ? nullptr : &allowed, hist,
                          !history.is_none());
        }
        py::list out;
        for (auto& k : gl) out.append(py::make_tuple(k.g, k.lt, k.lw, bool(k.cand)));
        return out;
    }

    int py_greedy_guess(Indices set, u64 played, int depth) {
        std::vector<int> S = set_of(set);
        py::gil_scoped_release nogil;
        return greedy_guess(S, played, depth);
    }

    py::object py_greedy_value(Indices set, int depth, u64 played) {
        std::vector<int> S = set_of(set);
        std::optional<Val> v;
        {
            py::gil_scoped_release nogil;
            v = greedy_value(S, depth, played);
        }
        if (!v) return py::none();  // stopped (the caller sees stopped()) or over the cap
        return py::make_tuple(v->t, v->w);
    }

    py::list py_stats() {
        py::list out;
        for (int k = 0; k < 8; ++k) {
            py::list row;
            for (int b = 0; b < 8; ++b) row.append(st_[k][b].load());
            out.append(row);
        }
        return out;
    }

   private:
    static std::unique_ptr<PackedScorer> scorer(const py::object& matrix, Codes codes, int n_symbols,
                                                bool repeats, bool bulls_only, i64 table_bytes) {
        if (!matrix.is_none()) return nullptr;
        auto out = std::make_unique<PackedScorer>(codes, n_symbols, repeats, bulls_only);
        if (table_bytes > 0) out->table_bytes = table_bytes;
        return out;
    }

    std::vector<int> history_of(const py::object& history) const {
        std::vector<int> h;
        if (history.is_none()) return h;
        for (auto item : history) {
            int g = item.cast<int>();
            if (g < 0 || g >= n_codes()) throw std::invalid_argument("history guess index out of range");
            h.push_back(g);
        }
        return h;
    }
};

}  // namespace

PYBIND11_MODULE(search_expected, m) {
    CBSOLVE_ISA_BIND(m);
    bind_toolkit(m);
    m.doc() = "Expected-case exact search: branch and bound with fill bounds and a transposition table.";
    py::class_<PySolver>(m, "Solver")
        .def(py::init<py::object, Codes, int, u64, int, int, int, bool, int, i64, std::vector<i64>, bool,
                      bool, std::vector<int>, i64>(),
             py::arg("matrix"), py::arg("codes"), py::arg("n_symbols"), py::arg("base_played"),
             py::arg("slots"), py::arg("win"), py::arg("branching"), py::arg("cand_only"),
             py::arg("max_depth"), py::arg("memo_entries"), py::arg("weights") = std::vector<i64>{},
             py::arg("repeats") = true, py::arg("bulls_only") = false,
             py::arg("responses") = std::vector<int>{}, py::arg("table_bytes") = 0)
        .def_property_readonly("on_the_fly", &Solver::on_the_fly)
        .def_readwrite("opt_memo", &Solver::opt_memo)
        .def_readwrite("opt_stabiliser", &Solver::opt_stabiliser)
        .def_readwrite("opt_branching", &Solver::opt_branching)
        .def_readwrite("opt_obvious", &Solver::opt_obvious)
        .def_readwrite("opt_dedup", &Solver::opt_dedup)
        .def_readwrite("opt_unplayed", &Solver::opt_unplayed)
        .def_readwrite("opt_candfirst", &Solver::opt_candfirst)
        .def_readwrite("opt_lookahead", &Solver::opt_lookahead)
        .def_readwrite("lookahead_min", &Solver::lookahead_min)
        .def_readwrite("opt_refine", &Solver::opt_refine)
        .def_readwrite("opt_prefilter", &Solver::opt_prefilter)
        .def_readwrite("refine_min", &Solver::refine_min)
        .def_readwrite("memo_min", &Solver::memo_min)
        .def_readwrite("tier_slack_pct", &Solver::tier_slack_pct)
        .def_property_readonly("nodes", &Solver::nodes)
        .def_property_readonly("n_codes", &Solver::n_codes)
        .def("prepare", &PySolver::py_prepare,
             "build the transposed reply matrix (stoppable; False when stopped, call again to resume)")
        .def_property_readonly("prepared_rows", &Solver::prepared_rows)
        .def("set_deadline", &Solver::set_deadline)
        .def("request_stop", &Solver::request_stop, py::arg("why") = "stopped",
             "stop the running call; why: a stop reason word (time, interrupted, stopped)")
        .def("stopped", &Solver::stopped)
        .def("stop_reason", &Solver::stop_reason, "why the search was stopped (complete: it was not)")
        .def("clear_memo", &Solver::clear_memo)
        .def("memo_size", &Solver::memo_size)
        .def("stats", &PySolver::py_stats)
        .def("lb_total", &Solver::lb_total)
        .def("lb_worst", &Solver::lb_worst)
        .def("solve", &PySolver::py_solve, py::arg("set"), py::arg("depth"), py::arg("budget_total"),
             py::arg("budget_worst"), py::arg("played"), py::arg("guesses") = py::none(),
             py::arg("history") = py::none())
        .def("guess_value", &PySolver::py_guess_value, py::arg("set"), py::arg("guess"), py::arg("depth"),
             py::arg("played"), py::arg("history") = py::none(),
             "(total, worst) of the guess then optimal play in each reply class; None if stopped")
        .def("scan", &PySolver::py_scan, py::arg("set"), py::arg("depth"), py::arg("played"),
             py::arg("guesses") = py::none(), py::arg("history") = py::none())
        .def("best_guess", &PySolver::py_best_guess, py::arg("set"), py::arg("depth"))
        .def("lower_bound", &PySolver::py_lower_bound, py::arg("set"), py::arg("depth"), py::arg("played"),
             py::arg("history") = py::none())
        .def("store_exact", &PySolver::py_store_exact, py::arg("set"), py::arg("depth"), py::arg("total"),
             py::arg("worst"), py::arg("guess"))
        .def("greedy_guess", &PySolver::py_greedy_guess, py::arg("set"), py::arg("played"), py::arg("depth"))
        .def("greedy_value", &PySolver::py_greedy_value, py::arg("set"), py::arg("depth"), py::arg("played"));
}
