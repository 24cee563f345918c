// SPDX-License-Identifier: GPL-2.0
//
// Rust as it is usually built (-O, no frame pointers), for the decoder
// fidelity corpus (docs/fidelity.md): panics unwinding through a
// recursion with a value to drop in every frame (a landing pad per frame,
// _Unwind_Resume from each), caught by catch_unwind, three times at
// different depths (once not at all); a boxed closure called through
// `dyn Fn`, a closure passed by value; an iterator chain (map, filter,
// fold) inlined into one function. The panic hook is silenced: the
// trace holds no formatting of the message. Linked statically
// (crt-static). Output is deterministic.
use std::panic;
use std::sync::atomic::{AtomicU64, Ordering};

static SINK: AtomicU64 = AtomicU64::new(0);

struct Guard(u32);

impl Drop for Guard {
    #[inline(never)]
    fn drop(&mut self) {
        SINK.fetch_add(self.0 as u64, Ordering::Relaxed);
    }
}

#[inline(never)]
fn descend(n: u32, fail_at: u32) -> u64 {
    let _g = Guard(n);
    if n == fail_at {
        panic!("depth {}", n);
    }
    if n == 0 {
        return 1;
    }
    descend(n - 1, fail_at) + n as u64
}

#[inline(never)]
fn apply<F: Fn(u64) -> u64>(f: F, v: u64) -> u64 {
    f(v)
}

#[inline(never)]
fn pipeline(v: &[u64]) -> u64 {
    v.iter().map(|x| x * 3).filter(|x| x % 2 == 1).fold(0, |a, x| a + x)
}

fn main() {
    panic::set_hook(Box::new(|_| {}));
    let mut total = 0u64;
    for fail_at in [2u32, 9, 4] {
        let r = panic::catch_unwind(|| descend(6, fail_at));
        total += match r {
            Ok(v) => v,
            Err(_) => 100,
        };
    }
    let k = total;
    let boxed: Box<dyn Fn(u64) -> u64> = Box::new(move |x| x + k);
    total = apply(&*boxed, total) + apply(|x| x * 2, 3);
    let data: Vec<u64> = (1..20).collect();
    total += pipeline(&data);
    println!("{} {}", total, SINK.load(Ordering::Relaxed));
}
