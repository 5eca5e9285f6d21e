//! Symmetric positive-definite matrices of 3×3 blocks stored by block-row profile
//! ("skyline"), with an in-place block Cholesky factorisation, solve and product: the normal
//! equations of the COM problem are block-banded (one block per control point).
//!
//! Block row `b` stores blocks `first[b]..=b` of the lower triangle contiguously; each block
//! is row-major (`m[3·row + col]`). Diagonal blocks are stored whole (symmetric).

/// One 3×3 block, row-major.
pub(crate) type Block = [f64; 9];

/// A lower block-triangular skyline matrix (before factoring: the lower half of a symmetric
/// matrix; after: its block Cholesky factor L with A = L·Lᵀ, diagonal blocks lower-triangular).
#[derive(Clone, Debug)]
pub(crate) struct Skyline {
    first: Vec<usize>,
    offset: Vec<usize>,
    blocks: Vec<Block>,
    /// After factoring: the inverse of each diagonal block of L (lower-triangular).
    inv_diag: Vec<Block>,
}

/// The matrix was not (numerically) positive definite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotPositiveDefinite;

impl Skyline {
    /// A zero matrix of `first.len()` block rows; block row `b` holds blocks `first[b]..=b`
    /// (`first[b]` is clamped to at most `b`). Cholesky fill stays inside this envelope.
    pub fn new(mut first: Vec<usize>) -> Self {
        let mut offset = Vec::with_capacity(first.len() + 1);
        let mut total = 0usize;
        for (b, f) in first.iter_mut().enumerate() {
            *f = (*f).min(b);
            offset.push(total);
            total += b - *f + 1;
        }
        offset.push(total);
        let n = first.len();
        Self { first, offset, blocks: vec![[0.0; 9]; total], inv_diag: vec![[0.0; 9]; n] }
    }

    /// Number of block rows.
    pub fn block_rows(&self) -> usize {
        self.first.len()
    }

    /// Adds `m` to block (`b`, `c`); requires `first[b] ≤ c ≤ b`.
    #[cfg(test)]
    pub fn add_block(&mut self, b: usize, c: usize, m: &Block) {
        self.add_to_row(b, c, std::slice::from_ref(m));
    }

    /// Adds `m[i]` to block (`b`, `c0 + i`) for each `i`; requires `first[b] ≤ c0` and
    /// `c0 + m.len() ≤ b + 1`.
    #[inline]
    pub fn add_to_row(&mut self, b: usize, c0: usize, m: &[Block]) {
        let start = self.block_index(b, c0);
        let dst = &mut self.blocks[start..start + m.len()];
        for (d, v) in dst.as_flattened_mut().iter_mut().zip(m.as_flattened()) {
            *d += v;
        }
    }

    /// Where block (`b`, `c`) is stored, for [`Skyline::add_scaled_at`]; requires
    /// `first[b] ≤ c ≤ b`.
    pub fn block_index(&self, b: usize, c: usize) -> usize {
        self.offset[b] + c - self.first[b]
    }

    /// Adds `scale · m` to the block stored at `index` (see [`Skyline::block_index`]).
    #[inline]
    pub fn add_scaled_at(&mut self, index: usize, scale: f64, m: &Block) {
        for (d, v) in self.blocks[index].iter_mut().zip(m) {
            *d += scale * v;
        }
    }

    /// Diagonal entry `a` (0..3) of diagonal block `b`.
    pub fn diag(&self, b: usize, a: usize) -> f64 {
        self.blocks[self.offset[b + 1] - 1][4 * a]
    }

    /// Adds `v` to diagonal entry `a` of diagonal block `b`.
    pub fn add_diag(&mut self, b: usize, a: usize, v: f64) {
        self.blocks[self.offset[b + 1] - 1][4 * a] += v;
    }

    /// Copies the values of `other`, which must have the same profile.
    pub fn copy_values_from(&mut self, other: &Skyline) {
        self.blocks.copy_from_slice(&other.blocks);
    }

    /// Replaces the matrix by its block Cholesky factor L (row-oriented Crout scheme).
    pub fn factor(&mut self) -> Result<(), NotPositiveDefinite> {
        for b in 0..self.block_rows() {
            let fb = self.first[b];
            let (done, rest) = self.blocks.split_at_mut(self.offset[b]);
            let row_b = &mut rest[..b - fb + 1];
            for c in fb..b {
                let fc = self.first[c];
                let k0 = fb.max(fc);
                let row_c = &done[self.offset[c]..self.offset[c + 1]];
                // S = A_bc − Σ_k L_bk · L_ckᵀ
                let mut s = row_b[c - fb];
                for (lbk, lck) in row_b[k0 - fb..c - fb].iter().zip(&row_c[k0 - fc..c - fc]) {
                    sub_mul_transposed(&mut s, lbk, lck);
                }
                // L_bc = S · L_cc⁻ᵀ
                row_b[c - fb] = mul_lower_transposed(&s, &self.inv_diag[c]);
            }
            let mut s = row_b[b - fb];
            for lbk in &row_b[..b - fb] {
                sub_mul_self_transposed_lower(&mut s, lbk);
            }
            let l = chol3(&s).ok_or(NotPositiveDefinite)?;
            self.inv_diag[b] = inverse_lower3(&l);
            row_b[b - fb] = l;
        }
        Ok(())
    }

    /// Solves L·Lᵀ·x = r in place (after [`Skyline::factor`]); `r` has 3 entries per block row.
    pub fn solve(&self, r: &mut [f64]) {
        let n = self.block_rows().min(r.len() / 3);
        for b in 0..n {
            let fb = self.first[b];
            let row = &self.blocks[self.offset[b]..self.offset[b + 1]];
            let mut s = [r[3 * b], r[3 * b + 1], r[3 * b + 2]];
            for (c, l) in (fb..b).zip(row) {
                let y = [r[3 * c], r[3 * c + 1], r[3 * c + 2]];
                for a in 0..3 {
                    s[a] -= l[3 * a] * y[0] + l[3 * a + 1] * y[1] + l[3 * a + 2] * y[2];
                }
            }
            let y = mul_vec(&self.inv_diag[b], &s);
            r[3 * b..3 * b + 3].copy_from_slice(&y);
        }
        for b in (0..n).rev() {
            let fb = self.first[b];
            let row = &self.blocks[self.offset[b]..self.offset[b + 1]];
            let y = [r[3 * b], r[3 * b + 1], r[3 * b + 2]];
            let x = mul_transposed_vec(&self.inv_diag[b], &y);
            r[3 * b..3 * b + 3].copy_from_slice(&x);
            for (c, l) in (fb..b).zip(row) {
                for a2 in 0..3 {
                    r[3 * c + a2] -= l[a2] * x[0] + l[3 + a2] * x[1] + l[6 + a2] * x[2];
                }
            }
        }
    }

    /// y += A·x for the symmetric matrix A stored here (before factoring).
    pub fn mul_add(&self, x: &[f64], y: &mut [f64]) {
        let n = self.block_rows().min(x.len() / 3).min(y.len() / 3);
        for b in 0..n {
            let fb = self.first[b];
            let row = &self.blocks[self.offset[b]..self.offset[b + 1]];
            let xb = [x[3 * b], x[3 * b + 1], x[3 * b + 2]];
            for (c, m) in (fb..=b).zip(row) {
                let xc = [x[3 * c], x[3 * c + 1], x[3 * c + 2]];
                for a in 0..3 {
                    y[3 * b + a] += m[3 * a] * xc[0] + m[3 * a + 1] * xc[1] + m[3 * a + 2] * xc[2];
                }
                if c < b {
                    for a2 in 0..3 {
                        y[3 * c + a2] += m[a2] * xb[0] + m[3 + a2] * xb[1] + m[6 + a2] * xb[2];
                    }
                }
            }
        }
    }
}

/// s −= a·bᵀ.
#[inline]
fn sub_mul_transposed(s: &mut Block, a: &Block, b: &Block) {
    for i in 0..3 {
        for j in 0..3 {
            s[3 * i + j] -= a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
        }
    }
}

/// The lower half of s −= a·aᵀ (the diagonal blocks: [`chol3`] reads only that half).
#[inline]
fn sub_mul_self_transposed_lower(s: &mut Block, a: &Block) {
    for i in 0..3 {
        for j in 0..=i {
            s[3 * i + j] -= a[3 * i] * a[3 * j] + a[3 * i + 1] * a[3 * j + 1] + a[3 * i + 2] * a[3 * j + 2];
        }
    }
}

/// a·bᵀ for a lower-triangular b (its zeros above the diagonal skipped).
#[inline]
fn mul_lower_transposed(a: &Block, b: &Block) -> Block {
    let mut m = [0.0; 9];
    for i in 0..3 {
        let r = &a[3 * i..3 * i + 3];
        m[3 * i] = r[0] * b[0];
        m[3 * i + 1] = r[0] * b[3] + r[1] * b[4];
        m[3 * i + 2] = r[0] * b[6] + r[1] * b[7] + r[2] * b[8];
    }
    m
}

#[inline]
fn mul_vec(m: &Block, v: &[f64; 3]) -> [f64; 3] {
    [
        m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
        m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
        m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
    ]
}

#[inline]
fn mul_transposed_vec(m: &Block, v: &[f64; 3]) -> [f64; 3] {
    [
        m[0] * v[0] + m[3] * v[1] + m[6] * v[2],
        m[1] * v[0] + m[4] * v[1] + m[7] * v[2],
        m[2] * v[0] + m[5] * v[1] + m[8] * v[2],
    ]
}

/// Lower-triangular Cholesky factor of the symmetric 3×3 `s` (its lower half is read).
fn chol3(s: &Block) -> Option<Block> {
    let l00 = positive_sqrt(s[0])?;
    let l10 = s[3] / l00;
    let l20 = s[6] / l00;
    let l11 = positive_sqrt(s[4] - l10 * l10)?;
    let l21 = (s[7] - l20 * l10) / l11;
    let l22 = positive_sqrt(s[8] - l20 * l20 - l21 * l21)?;
    Some([l00, 0.0, 0.0, l10, l11, 0.0, l20, l21, l22])
}

fn positive_sqrt(v: f64) -> Option<f64> {
    (v > 0.0 && v.is_finite()).then(|| v.sqrt())
}

/// Inverse of a lower-triangular 3×3 with a positive diagonal.
fn inverse_lower3(l: &Block) -> Block {
    let (i00, i11, i22) = (1.0 / l[0], 1.0 / l[4], 1.0 / l[8]);
    let i10 = -l[3] * i00 * i11;
    let i21 = -l[7] * i11 * i22;
    let i20 = -(l[6] * i00 + l[7] * i10) * i22;
    [i00, 0.0, 0.0, i10, i11, 0.0, i20, i21, i22]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // A failed unwrap is a failed test.
mod tests {
    use super::*;

    /// A deterministic pseudo-random number in [−1, 1).
    fn lcg(state: &mut u64) -> f64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((*state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    #[test]
    fn solves_a_variable_band_spd_system_and_multiplies() {
        let nb = 20;
        let n = 3 * nb;
        let mut state = 7u64;
        let first: Vec<usize> = (0..nb).map(|b: usize| b.saturating_sub(1 + (b * 7) % 4)).collect();
        let mut dense = vec![vec![0.0; n]; n];
        for b in 0..nb {
            for c in first[b]..=b {
                for a in 0..3 {
                    for a2 in 0..3 {
                        let (i, j) = (3 * b + a, 3 * c + a2);
                        if j < i {
                            let v = 0.5 * lcg(&mut state);
                            dense[i][j] = v;
                            dense[j][i] = v;
                        }
                    }
                }
            }
            for a in 0..3 {
                dense[3 * b + a][3 * b + a] = 8.0 + lcg(&mut state);
            }
        }
        let mut sky = Skyline::new(first.clone());
        for b in 0..nb {
            for c in first[b]..=b {
                let mut m = [0.0; 9];
                for a in 0..3 {
                    for a2 in 0..3 {
                        m[3 * a + a2] = dense[3 * b + a][3 * c + a2];
                    }
                }
                sky.add_block(b, c, &m);
            }
        }
        let x_true: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        let expected: Vec<f64> = (0..n).map(|i| (0..n).map(|j| dense[i][j] * x_true[j]).sum()).collect();
        let mut product = vec![0.0; n];
        sky.mul_add(&x_true, &mut product);
        for (p, e) in product.iter().zip(&expected) {
            assert!((p - e).abs() < 1e-12, "{p} vs {e}");
        }
        let mut r = expected;
        sky.factor().unwrap();
        sky.solve(&mut r);
        for (x, t) in r.iter().zip(&x_true) {
            assert!((x - t).abs() < 1e-10, "{x} vs {t}");
        }
    }

    #[test]
    fn refuses_an_indefinite_matrix() {
        let mut sky = Skyline::new(vec![0, 0]);
        sky.add_block(0, 0, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        sky.add_block(1, 0, &[2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        sky.add_block(1, 1, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(sky.factor(), Err(NotPositiveDefinite));
    }
}
