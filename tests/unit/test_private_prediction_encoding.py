"""Private prediction's arithmetic: the modulus is prime (madnb_pl.predict.share), the client's encoding and shares (madnb.private_predict)."""

from __future__ import annotations


def test_the_modulus_is_prime():
    """Lucas-Lehmer: 2^1279 - 1 is a Mersenne prime (the shares' arithmetic is a field)."""
    from madnb_pl.predict.share import MODULUS

    q = MODULUS.bit_length()
    assert MODULUS == 2**q - 1
    s = 4
    for _ in range(q - 2):
        s = (s * s - 2) % MODULUS
    assert s == 0



def test_a_float_coefficient_is_the_exact_fixed_point_rounding_of_its_value():
    """round(x * 2^64) half to even, exactly (Fraction arithmetic in the test), for ordinary, tiny, half-way, huge and
    subnormal floats."""
    import random
    import sys
    from fractions import Fraction

    from madnb_pl.predict.share import COEFFICIENT_BITS, _fixed_float

    rng = random.Random(19)
    xs = [rng.uniform(-50, 0) for _ in range(2000)] + [rng.uniform(-1e-15, 1e-15) for _ in range(200)]
    xs += [0.0, -0.0, 2.5 * 2.0**-64, 3.5 * 2.0**-64, -2.5 * 2.0**-64, 5e-324, -5e-324, sys.float_info.max, -sys.float_info.max, 1e300]
    for x in xs:
        q = Fraction(x) * 2**COEFFICIENT_BITS
        n, r = divmod(q.numerator, q.denominator)
        frac = Fraction(r, q.denominator)
        want = n + (1 if frac > Fraction(1, 2) or (frac == Fraction(1, 2) and n % 2 == 1) else 0)
        assert _fixed_float(x) == want, x


def test_shares_add_up_to_the_encoded_row_and_an_unseen_or_missing_value_encodes_as_zeros():
    from madnb.private_predict import _Encoder, _split

    enc = {
        "format": 1, "modulus": str(2**127 - 1), "input_bits": 4, "coefficient_bits": 4, "classes": ["a", "b"], "width": 6,
        "features": [{"name": "c", "role": "categorical", "text": "int4", "values": ["1", "2"]},
                     {"name": "x", "role": "gaussian", "window": [-8.0, 8.0], "scale": 2.0}],
    }
    e = _Encoder(enc)
    assert e.encode({"c": 2, "x": 3.0}) == [16, 0, 16, 16, 24, 36]   # one = 2^4; u = 1.5, u^2 = 2.25
    assert e.encode({"c": 2.0, "x": 100.0}) == [16, 0, 16, 16, 64, 256]  # a whole float is its digits; x clipped to 8
    assert e.encode({"c": 7, "x": float("nan")}) == [16, 0, 0, 0, 0, 0]  # unseen, NaN: nothing
    assert e.encode({}) == [16, 0, 0, 0, 0, 0]  # missing columns: missing values
    row = e.encode({"c": 1, "x": -1.0})
    for m in (2, 3, 5):
        shares = _split(row, m, e.p)
        assert len(shares) == m and all(0 <= v < e.p for s in shares for v in s)
        assert [sum(col) % e.p for col in zip(*shares, strict=True)] == [v % e.p for v in row]
