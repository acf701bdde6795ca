fn main() {
    run();
}
