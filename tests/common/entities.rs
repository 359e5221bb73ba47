//! Documents with entities, shared by the tests of their behaviour
//! (`tests/entities.rs`) and of their limits (`tests/hostile.rs`).

/// Entities `e0` to `e{levels}`, each but the last an element around a
/// reference to the next; the root refers to `e0`.
pub fn entity_chain(levels: usize) -> String {
    let mut text = String::from("<!DOCTYPE r [");
    for i in 0..levels {
        text.push_str(&format!("<!ENTITY e{i} \"<b>&e{};</b>\">", i + 1));
    }
    text.push_str(&format!("<!ENTITY e{levels} \"end\">]><r>&e0;</r>"));
    text
}
