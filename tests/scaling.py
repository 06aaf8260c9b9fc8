"""The one guard against super-linear time: compare CPU time at two sizes in the same run, with a wide margin.

No absolute wall-clock bound anywhere: a busy machine slows both sizes alike, a fast one speeds both up. It ships in
the package (`uri1630.testing`, exported from nbs/00b_testing.ipynb), so that the notebooks' linear-time cells need no
file of the repository; the tests import it from here."""
from uri1630.testing import assert_linear, children_cpu, cpu

__all__ = ["assert_linear", "children_cpu", "cpu"]
