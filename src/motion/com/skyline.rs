//! Symmetric positive-definite matrices stored by row profile ("skyline"), with an in-place
//! Cholesky factorisation and solve: the normal equations of the COM problem are banded.
//!
//! Row `i` stores columns `first[i]..=i` of the lower triangle contiguously.

/// A lower-triangular skyline matrix (before factoring: the lower half of a symmetric matrix;
/// after: its Cholesky factor L with A = L·Lᵀ).
#[derive(Clone, Debug)]
pub(crate) struct Skyline {
    first: Vec<usize>,
    offset: Vec<usize>,
    values: Vec<f64>,
    /// After factoring: 1 / L[i][i] (multiplying is much cheaper than dividing).
    inv_diag: Vec<f64>,
}

/// The matrix was not (numerically) positive definite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotPositiveDefinite;

impl Skyline {
    /// A zero matrix whose row `i` holds columns `first[i]..=i` (`first[i]` is clamped to
    /// at most `i`). Cholesky fill stays inside this envelope, whatever its shape.
    pub fn new(mut first: Vec<usize>) -> Self {
        let mut offset = Vec::with_capacity(first.len() + 1);
        let mut total = 0usize;
        for (i, f) in first.iter_mut().enumerate() {
            *f = (*f).min(i);
            offset.push(total);
            total += i - *f + 1;
        }
        offset.push(total);
        let n = first.len();
        Self { first, offset, values: vec![0.0; total], inv_diag: vec![0.0; n] }
    }

    /// Order of the matrix.
    pub fn n(&self) -> usize {
        self.first.len()
    }

    /// Adds `v` at (`i`, `j`); requires `first[i] ≤ j ≤ i`.
    #[inline]
    pub fn add(&mut self, i: usize, j: usize, v: f64) {
        debug_assert!(j <= i && j >= self.first[i]);
        self.values[self.offset[i] + j - self.first[i]] += v;
    }

    /// Adds the lower triangle of the dense row-major m×m matrix `dense` at rows and columns
    /// `start..start + m`; requires `first[start + i] ≤ start` for each of those rows.
    pub fn add_dense_lower(&mut self, start: usize, m: usize, dense: &[f64]) {
        for i in 0..m {
            let row = start + i;
            let base = self.offset[row] + start - self.first[row];
            let dst = &mut self.values[base..base + i + 1];
            for (d, v) in dst.iter_mut().zip(&dense[m * i..m * i + i + 1]) {
                *d += v;
            }
        }
    }

    /// y += A·x for the symmetric matrix A stored here (before factoring).
    pub fn mul_add(&self, x: &[f64], y: &mut [f64]) {
        let n = self.n().min(x.len()).min(y.len());
        for i in 0..n {
            let fi = self.first[i];
            let row = &self.values[self.offset[i]..self.offset[i + 1]];
            let (off, diag) = row.split_at(i - fi);
            y[i] += dot(off, &x[fi..i]) + diag[0] * x[i];
            let xi = x[i];
            for (yj, a) in y[fi..i].iter_mut().zip(off) {
                *yj += a * xi;
            }
        }
    }

    /// The diagonal entry of row `i`.
    pub fn diag(&self, i: usize) -> f64 {
        self.values[self.offset[i + 1] - 1]
    }

    /// Adds `v` to the diagonal entry of row `i`.
    pub fn add_diag(&mut self, i: usize, v: f64) {
        self.values[self.offset[i + 1] - 1] += v;
    }

    /// Copies the values of `other`, which must have the same profile.
    pub fn copy_values_from(&mut self, other: &Skyline) {
        self.values.copy_from_slice(&other.values);
    }

    /// Replaces the matrix by its Cholesky factor L (row-oriented Crout scheme).
    pub fn factor(&mut self) -> Result<(), NotPositiveDefinite> {
        for i in 0..self.n() {
            let fi = self.first[i];
            let (done, rest) = self.values.split_at_mut(self.offset[i]);
            let row_i = &mut rest[..i - fi + 1];
            for j in fi..i {
                let fj = self.first[j];
                let k0 = fi.max(fj);
                let row_j = &done[self.offset[j]..self.offset[j + 1]];
                let dot = dot(&row_i[k0 - fi..j - fi], &row_j[k0 - fj..j - fj]);
                row_i[j - fi] = (row_i[j - fi] - dot) * self.inv_diag[j];
            }
            let d = row_i[i - fi] - dot(&row_i[..i - fi], &row_i[..i - fi]);
            if !(d > 0.0) || !d.is_finite() {
                return Err(NotPositiveDefinite);
            }
            let l = d.sqrt();
            row_i[i - fi] = l;
            self.inv_diag[i] = 1.0 / l;
        }
        Ok(())
    }

    /// Solves L·Lᵀ·x = b in place (after [`Skyline::factor`]).
    pub fn solve(&self, b: &mut [f64]) {
        let n = self.n().min(b.len());
        for i in 0..n {
            let fi = self.first[i];
            let row = &self.values[self.offset[i]..self.offset[i + 1]];
            let s = b[i] - dot(&row[..i - fi], &b[fi..i]);
            b[i] = s * self.inv_diag[i];
        }
        for i in (0..n).rev() {
            let fi = self.first[i];
            let row = &self.values[self.offset[i]..self.offset[i + 1]];
            let x = b[i] * self.inv_diag[i];
            b[i] = x;
            for (bk, l) in b[fi..i].iter_mut().zip(&row[..i - fi]) {
                *bk -= l * x;
            }
        }
    }
}

#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random number in [−1, 1).
    fn lcg(state: &mut u64) -> f64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    #[test]
    fn solves_a_variable_band_spd_system() {
        let n = 40;
        let mut state = 7u64;
        let first: Vec<usize> = (0..n).map(|i: usize| i.saturating_sub(1 + (i * 7) % 5)).collect();
        // A = Bᵀ·B-like: build the dense SPD matrix with the given profile.
        let mut dense = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in first[i]..i {
                let v = lcg(&mut state);
                dense[i][j] = v;
                dense[j][i] = v;
            }
            dense[i][i] = 6.0 + lcg(&mut state);
        }
        let mut sky = Skyline::new(first.clone());
        for i in 0..n {
            for j in first[i].min(i)..=i {
                sky.add(i, j, dense[i][j]);
            }
        }
        let x_true: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        let mut b: Vec<f64> =
            (0..n).map(|i| (0..n).map(|j| dense[i][j] * x_true[j]).sum()).collect();
        sky.factor().unwrap();
        sky.solve(&mut b);
        for (x, t) in b.iter().zip(&x_true) {
            assert!((x - t).abs() < 1e-10, "{x} vs {t}");
        }
    }

    #[test]
    fn refuses_an_indefinite_matrix() {
        let mut sky = Skyline::new(vec![0, 0]);
        sky.add(0, 0, 1.0);
        sky.add(1, 0, 2.0);
        sky.add(1, 1, 1.0);
        assert_eq!(sky.factor(), Err(NotPositiveDefinite));
    }
}
