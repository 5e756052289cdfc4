// Sum-product belief propagation for P(secret[p] = s): the native twin of the NumPy reference in
// cbsolve/consistency/marginals.py (same factors, schedule, damping and floor, so the two agree
// to rounding; the tests compare them). Python builds the factors and owns validation.
//
// Factor f watches symbol fsym[f][p] at every position p and says "exactly target[f] positions
// match". Its message to p only needs the distribution of the other positions' match indicators
// z_q ~ Bernoulli(pi[f][q]) (a Poisson binomial): prefix and suffix distributions, O(N^2) per
// factor and sweep, no division. Messages are kept in the log domain as (match, miss) pairs.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace py = pybind11;

namespace {

constexpr double FLOOR = 1e-12;

py::array_t<double> marginals(py::array_t<uint8_t, py::array::c_style | py::array::forcecast> fsym_in,
                              std::vector<int> target, int d, bool no_leading_zero, int sweeps,
                              double damping) {
    if (fsym_in.ndim() != 2) throw std::invalid_argument("factor symbols must be (F, N)");
    const int F = static_cast<int>(fsym_in.shape(0)), n = static_cast<int>(fsym_in.shape(1));
    if (static_cast<int>(target.size()) != F) throw std::invalid_argument("one target per factor");
    const uint8_t* fsym = fsym_in.data();
    const double NEG = -std::numeric_limits<double>::infinity();
    std::vector<double> prior(static_cast<size_t>(n) * d, 0.0);
    if (no_leading_zero && n > 0) prior[0] = NEG;
    // msg[(f*n + p)*2 + {0: match, 1: miss}]
    std::vector<double> msg(static_cast<size_t>(F) * n * 2, 0.0), belief(prior.size());
    std::vector<double> pi(static_cast<size_t>(F) * n), pre((n + 1) * (n + 1)), suf((n + 1) * (n + 1));
    std::vector<double> cav(d);

    auto beliefs = [&]() {   // prior + the sum of every factor's message, per (p, s)
        for (int p = 0; p < n; ++p) {
            double miss_sum = 0;
            for (int f = 0; f < F; ++f) miss_sum += msg[(static_cast<size_t>(f) * n + p) * 2 + 1];
            for (int s = 0; s < d; ++s) belief[p * d + s] = prior[p * d + s] + miss_sum;
            for (int f = 0; f < F; ++f) {
                const double* m = &msg[(static_cast<size_t>(f) * n + p) * 2];
                belief[p * d + fsym[f * n + p]] += m[0] - m[1];
            }
        }
    };

    {
        py::gil_scoped_release release;
        for (int sweep = 0; sweep < sweeps; ++sweep) {
            beliefs();
            // Cavity probability that position p matches factor f, without f's own message.
            for (int f = 0; f < F; ++f)
                for (int p = 0; p < n; ++p) {
                    const double* m = &msg[(static_cast<size_t>(f) * n + p) * 2];
                    const int fs = fsym[f * n + p];
                    double top = NEG;
                    for (int s = 0; s < d; ++s) {
                        cav[s] = belief[p * d + s] - (s == fs ? m[0] : m[1]);
                        top = std::max(top, cav[s]);
                    }
                    double z = 0;
                    for (int s = 0; s < d; ++s) z += (cav[s] = std::exp(cav[s] - top));
                    pi[static_cast<size_t>(f) * n + p] = std::clamp(cav[fs] / z, FLOOR, 1 - FLOOR);
                }
            for (int f = 0; f < F; ++f) {
                const double* a = &pi[static_cast<size_t>(f) * n];
                // pre[q][j]: P(z_0 + ... + z_{q-1} = j); suf[q][j]: P(z_q + ... + z_{n-1} = j)
                std::fill(pre.begin(), pre.end(), 0.0);
                std::fill(suf.begin(), suf.end(), 0.0);
                pre[0] = 1.0;
                for (int q = 0; q < n; ++q)
                    for (int j = 0; j <= q + 1; ++j)
                        pre[(q + 1) * (n + 1) + j] = pre[q * (n + 1) + j] * (1 - a[q])
                            + (j ? pre[q * (n + 1) + j - 1] * a[q] : 0.0);
                suf[n * (n + 1)] = 1.0;
                for (int q = n - 1; q >= 0; --q)
                    for (int j = 0; j <= n - q; ++j)
                        suf[q * (n + 1) + j] = suf[(q + 1) * (n + 1) + j] * (1 - a[q])
                            + (j ? suf[(q + 1) * (n + 1) + j - 1] * a[q] : 0.0);
                for (int p = 0; p < n; ++p) {
                    double out[2];
                    for (int shift = 1; shift >= 0; --shift) {   // t - 1 others (match), t (miss)
                        const int want = target[f] - shift;
                        double sum = 0;
                        for (int j = 0; j <= n; ++j) {
                            const int k = want - j;
                            if (k < 0 || k > n) continue;
                            sum += pre[p * (n + 1) + j] * suf[(p + 1) * (n + 1) + k];
                        }
                        out[1 - shift] = std::log(sum + FLOOR);
                    }
                    const double top = std::max(out[0], out[1]);
                    double* m = &msg[(static_cast<size_t>(f) * n + p) * 2];
                    m[0] = damping * m[0] + (1 - damping) * (out[0] - top);
                    m[1] = damping * m[1] + (1 - damping) * (out[1] - top);
                }
            }
        }
        beliefs();
    }
    py::array_t<double> result({n, d});
    auto r = result.mutable_unchecked<2>();
    for (int p = 0; p < n; ++p) {
        double top = NEG;
        for (int s = 0; s < d; ++s) top = std::max(top, belief[p * d + s]);
        double z = 0;
        for (int s = 0; s < d; ++s) z += std::exp(belief[p * d + s] - top);
        for (int s = 0; s < d; ++s) r(p, s) = std::exp(belief[p * d + s] - top) / z;
    }
    return result;
}

}  // namespace

PYBIND11_MODULE(belief, m) {
    m.doc() = "Sum-product belief propagation: estimated P(secret[p] = s) (search guidance)";
    m.def("marginals", &marginals, py::arg("factor_symbols"), py::arg("targets"), py::arg("d"),
          py::arg("no_leading_zero"), py::arg("sweeps"), py::arg("damping"),
          "(N, D) estimated marginals; factor f: exactly targets[f] positions p hold "
          "factor_symbols[f, p].");
}
