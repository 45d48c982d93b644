// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Devnet stand-in of the ".mega" name service: one name and one profile per address.
contract MegaNames {
    struct Profile {
        string avatar;
        string description;
        string twitter;
        string github;
        string telegram;
        string url;
    }

    mapping(address => string) private _names;
    mapping(bytes32 => address) private _owners;
    mapping(address => Profile) private _profiles;

    event NameRegistered(address indexed owner, string label);

    function register(string calldata label) external {
        bytes32 key = keccak256(bytes(label));
        require(bytes(label).length > 0, "Empty name");
        require(_owners[key] == address(0), "Name taken");
        string memory previous = _names[msg.sender];
        if (bytes(previous).length > 0) delete _owners[keccak256(bytes(previous))];
        _owners[key] = msg.sender;
        _names[msg.sender] = label;
        emit NameRegistered(msg.sender, label);
    }

    function setProfile(string calldata avatar, string calldata description, string calldata twitter, string calldata github, string calldata telegram, string calldata url) external {
        _profiles[msg.sender] = Profile(avatar, description, twitter, github, telegram, url);
    }

    function getName(address owner) external view returns (string memory) {
        return _names[owner];
    }

    function getAddress(string calldata label) external view returns (address) {
        return _owners[keccak256(bytes(label))];
    }

    function getProfile(address owner)
        external view returns (string memory avatar, string memory description, string memory twitter, string memory github, string memory telegram, string memory url)
    {
        Profile storage p = _profiles[owner];
        return (p.avatar, p.description, p.twitter, p.github, p.telegram, p.url);
    }
}
