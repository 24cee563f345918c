(* OCaml native code as magic-trace users trace it (ocamlopt): exceptions
   are no unwinding. A handler pushes its address and the stack pointer
   of the previous one; a raise in user code restores that stack pointer
   and jumps to the handler (`pop %r11; jmp *%r11`), a raise from the
   standard library (built with -g) calls caml_raise_exn, which returns
   to the handler (`mov ..,%rsp; pop ..; ret`). Also: a recursion 300
   frames deep (below the decoder's 512; with the argument "deep", 700:
   a raise out of frames the timeline does not show), tail calls (a
   loop, mutual recursion), closures through List.map and
   List.fold_left. *)

exception Found of int

let limit = if Array.length Sys.argv > 1 && Sys.argv.(1) = "deep" then 700 else 300

(* raise (jmp) from the bottom of a recursion, caught by the caller *)
let rec search n target =
  if n = target then raise (Found n)
  else if n > limit then raise Not_found
  else 1 + search (n + 1) target

(* a handler in a frame of its own, around a function that raises *)
let protect f x = try f x with Not_found -> -1 | Found k -> k

(* tail calls: a loop and mutual recursion (jmp to the callee's entry) *)
let rec count_tail acc n = if n = 0 then acc else count_tail (acc + n) (n - 1)
let rec even n = if n = 0 then true else odd (n - 1)
and odd n = if n = 0 then false else even (n - 1)

(* Not_found raised inside the standard library (caml_raise_exn), from
   a frame under the handler's; the handler calls out *)
let[@inline never] miss k = k * 2
let lookup l k = try List.assoc k l with Not_found -> 1 + miss k

let () =
  let t = ref 0 in
  let l = List.init 20 (fun i -> (i, i * i)) in
  for i = 1 to 3 do
    t := !t + protect (search 0) (i * 5);
    t := !t + protect (search 0) 1000;
    t := !t + count_tail 0 (i * 10);
    if even (i * 7) then incr t;
    t := !t + lookup l i + lookup l (100 + i)
  done;
  t := !t + List.fold_left ( + ) 0 (List.map (fun (_, v) -> v + 1) l);
  print_int !t;
  print_newline ()
